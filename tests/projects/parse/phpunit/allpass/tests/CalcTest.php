<?php
namespace Demo\Tests;

use Demo\Calc;
use PHPUnit\Framework\TestCase;

final class CalcTest extends TestCase
{
    public function testAdds(): void { $this->assertSame(3, Calc::add(1, 2)); }
    /** @dataProvider pairs */
    public function testPairs(int $a, int $b, int $sum): void { $this->assertSame($sum, Calc::add($a, $b)); }
    public function pairs(): array { return ["zero" => [0, 0, 0], "one plus one" => [1, 1, 2]]; }
    public function testRisky(): void { }
}
