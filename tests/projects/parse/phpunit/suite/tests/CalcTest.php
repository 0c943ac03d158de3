<?php
namespace Demo\Tests;

use Demo\Calc;
use PHPUnit\Framework\TestCase;

final class CalcTest extends TestCase
{
    public function testAdds(): void { $this->assertSame(3, Calc::add(1, 2)); }
    public function testFails(): void { $this->assertSame(4, Calc::add(1, 2), "arithmetic"); }
    public function testErrors(): void { throw new \RuntimeException("boom"); }
    public function testRisky(): void { }
    public function testSkipped(): void { $this->markTestSkipped("later"); }
    public function testIncomplete(): void { $this->markTestIncomplete("todo"); }
    public function testWarns(): void { $this->addWarning("a warning fails the run"); $this->assertTrue(true); }

    /** @dataProvider pairs */
    public function testPairs(int $a, int $b, int $sum): void { $this->assertSame($sum, Calc::add($a, $b)); }
    public function pairs(): array
    {
        return ["one plus one" => [1, 1, 2], "wrong \"quoted\" name" => [1, 1, 3], "with.dots (x)" => [2, 2, 5]];
    }

    /** @dataProvider numbered */
    public function testNumbered(int $a): void { $this->assertSame(1, $a); }
    public function numbered(): array { return [[1], [2]]; }

    public function testPrintsAFailureBlock(): void
    {
        // A passing test whose output looks like PHPUnit's defect list.
        echo "\nThere was 1 failure:\n\n1) Demo\\Tests\\GhostTest::testGhost\nFailed asserting that false is true.\n\n";
        $this->assertTrue(true);
    }
}
