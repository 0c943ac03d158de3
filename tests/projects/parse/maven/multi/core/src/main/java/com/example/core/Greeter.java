package com.example.core;

public final class Greeter {
    public static String greet(String name) { return "Hello " + name; }
}
