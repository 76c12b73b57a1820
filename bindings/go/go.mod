module libexecveat.org/go/execveat

go 1.19
