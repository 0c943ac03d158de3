<?php
namespace Tests;

require_once __DIR__ . '/Flaky.php';

use PHPUnit\Framework\TestCase;

final class RerunTest extends TestCase
{
    /** @var bool */
    private static $polluted = false;

    public function testFails(): void
    {
        $this->assertNotSame('fail', mode());
    }

    // Its name starts with the failing one's: a retry must not run it.
    public function testFailsNot(): void
    {
        $this->assertTrue(true);
    }

    public function testAPollutes(): void
    {
        self::$polluted = true;
        $this->assertTrue(true);
    }

    public function testBVictim(): void
    {
        $this->assertFalse(mode() === 'order' && self::$polluted, 'polluted by testAPollutes');
    }

    public function testSometimes(): void
    {
        if (mode() === 'flaky') {
            $this->assertFalse(run_number() === 1, 'first run');
        }
        $this->assertTrue(true);
    }

    /** @dataProvider names */
    public function testNamed(string $x): void
    {
        $this->assertFalse(mode() === 'fail' && $x !== 'plain', "named $x");
    }

    public function names(): array
    {
        return [
            'plain' => ['plain'],
            'a.b*(c)|d^$ "q" /s\\ ünï' => ['odd'],
            'plain too' => ['plain'],
        ];
    }
}
