/*
 * What the library exports. Everything is hidden by default (meson's
 * gnu_symbol_visibility); the version script libexecveat.map.in gives each
 * exported name its version node.
 */
#ifndef EXECVEAT_EXPORTS_H
#define EXECVEAT_EXPORTS_H

#define EXECVEAT_EXPORT __attribute__((visibility("default")))

#endif /* EXECVEAT_EXPORTS_H */
