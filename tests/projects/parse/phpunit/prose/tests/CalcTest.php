<?php
namespace Demo\Tests;

use Demo\Calc;
use PHPUnit\Framework\TestCase;

// --testdox prints both methods as `Adds two numbers` (PHPUnit's
// NamePrettifier), and the class as `Calc (Demo\Tests\Calc)`: the prose
// does not map back to one method, nor to the class's name.
final class CalcTest extends TestCase
{
    public function testAddsTwoNumbers(): void { $this->assertSame(4, Calc::add(1, 2)); }
    public function test_adds_two_numbers(): void { $this->assertSame(3, Calc::add(1, 2)); }
}
