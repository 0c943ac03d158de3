module example.com/tooold

go 1.99
