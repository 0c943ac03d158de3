package com.example.core;

public final class Calc {
    private Calc() {}

    public static int add(int a, int b) { return a + b; }
}
