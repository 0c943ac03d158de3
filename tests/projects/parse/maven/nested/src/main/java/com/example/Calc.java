package com.example;

/** What the tests test. */
public final class Calc {
    public static int add(int a, int b) { return a + b; }
    public static int sub(int a, int b) { return a - b + 1; }
    public static int div(int a, int b) { return a / b; }
}
