module example.com/exitsearly

go 1.19
