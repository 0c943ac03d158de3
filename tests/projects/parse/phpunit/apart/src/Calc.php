<?php
namespace Demo;
final class Calc { public static function add(int $a, int $b): int { return $a + $b; } }
