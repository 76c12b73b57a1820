/*
 * Making a forked worker look, to the library, like a fresh process image.
 *
 * fork copies no page-table entries for file-backed code, and leaves the
 * library's writable pages shared copy-on-write with the parent. A fresh
 * image instead has the library's data page private already (the loader
 * wrote its relocations there). Without this, the worker's first call of
 * the library would pay for page faults that no real first call pays.
 */
#ifndef BENCH_FRESH_IMAGE_H
#define BENCH_FRESH_IMAGE_H

/* Writes every writable, non-RELRO page of each loaded object whose path
 * contains name_part, leaving the bytes as they were; returns how many
 * pages it wrote. */
int make_data_pages_private(const char *name_part);

#endif /* BENCH_FRESH_IMAGE_H */
