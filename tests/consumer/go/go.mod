module ruas.dev/tests

go 1.19

require ruas.dev/ruas v0.0.0

replace ruas.dev/ruas => ../../../bindings/go
