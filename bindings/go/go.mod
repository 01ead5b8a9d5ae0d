module ruas.dev/ruas

go 1.19
