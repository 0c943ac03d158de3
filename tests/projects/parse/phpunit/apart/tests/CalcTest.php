<?php
namespace Demo\Tests;

use Demo\Calc;
use PHPUnit\Framework\TestCase;

// One test of each kind PHPUnit 9 counts apart from failures: risky,
// warned, incomplete, skipped. PHPUnit exits 0 unless the project fails a
// run on one of them (failOnRisky, failOnWarning, failOnIncomplete,
// failOnSkipped, or their --fail-on-… flags), and then 1.
final class CalcTest extends TestCase
{
    public function testAdds(): void { $this->assertSame(3, Calc::add(1, 2)); }
    public function testAssertsNothing(): void { Calc::add(1, 2); }
    public function testWarns(): void { $this->addWarning("careful"); $this->assertTrue(true); }
    public function testIsIncomplete(): void { $this->markTestIncomplete("later"); }
    public function testIsSkipped(): void { $this->markTestSkipped("not here"); }
}
