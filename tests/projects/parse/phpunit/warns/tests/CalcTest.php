<?php
namespace Demo\Tests;

use Demo\Calc;
use PHPUnit\Framework\TestCase;

// A warning: PHPUnit 9 exits 0 unless failOnWarning (--fail-on-warning).
final class CalcTest extends TestCase
{
    public function testAdds(): void { $this->assertSame(3, Calc::add(1, 2)); }
    public function testWarns(): void { $this->addWarning("careful"); $this->assertTrue(true); }
}
