module example.com/newstd

go 1.99
