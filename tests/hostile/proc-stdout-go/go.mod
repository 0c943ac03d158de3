module example.com/procstdout

go 1.19
