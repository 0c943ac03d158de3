module example.com/honest

go 1.21
