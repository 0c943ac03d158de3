module example.com/forgedframing

go 1.19
