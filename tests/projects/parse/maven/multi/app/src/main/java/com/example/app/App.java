package com.example.app;

public final class App {
    public static int twice(int n) { return 2 * n; }
}
