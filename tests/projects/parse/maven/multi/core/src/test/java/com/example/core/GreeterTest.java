package com.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GreeterTest {
    @Test void greets() { assertEquals("Hello Ada", Greeter.greet("Ada")); }
    @Test void punctuates() { assertEquals("Hello Ada!", Greeter.greet("Ada")); }
}
