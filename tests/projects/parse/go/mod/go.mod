module example.com/tgfixture

go 1.19
