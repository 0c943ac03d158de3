<?php
namespace Demo\Tests;

use Demo\Calc;
use PHPUnit\Framework\TestCase;

// failOnRisky: the risky tests fail the run (exit 1), though PHPUnit
// counts them risky, not failed.
final class CalcTest extends TestCase
{
    public function testAdds(): void { $this->assertSame(3, Calc::add(1, 2)); }
    public function testAssertsNothing(): void { Calc::add(1, 2); }
    public function testPrints(): void { echo "hello"; $this->assertTrue(true); }
}
