<?php
namespace Demo\Tests;

use PHPUnit\Framework\TestCase;

final class FatalTest extends TestCase
{
    public function testAPasses(): void { $this->assertTrue(true); }
    public function testBRecursesForever(): void { ini_set('memory_limit', '16M'); $a = []; while (true) { $a[] = str_repeat('x', 1024); } }
    public function testCNeverRuns(): void { $this->assertTrue(true); }
}
