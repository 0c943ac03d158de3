package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ParamTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "bb", "c"})
    void short_(String word) { assertEquals(1, word.length()); }

    @ParameterizedTest
    @CsvSource({"1, 1", "2, 4", "3, 10"})
    void squares(int in, int out) { assertEquals(out, in * in); }
}
