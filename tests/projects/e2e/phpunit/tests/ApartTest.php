<?php
// Risky, warned and incomplete tests, only in modes of their own (`risky`,
// `warn`, `both`, `incomplete`; tests/e2e/runners/phpunit.json's checks):
// otherwise every test here passes.
namespace Tests;

require_once __DIR__ . '/Flaky.php';

use PHPUnit\Framework\TestCase;

final class ApartTest extends TestCase
{
    public function testChecksNothing(): void
    {
        if (!in_array(mode(), ['risky', 'both', 'incomplete'], true)) {
            $this->assertTrue(true);
        }
    }

    public function testWarns(): void
    {
        if (in_array(mode(), ['warn', 'both'], true)) {
            $this->addWarning('careful');
        }
        $this->assertTrue(true);
    }

    public function testIsIncomplete(): void
    {
        if (mode() === 'incomplete') {
            $this->markTestIncomplete('later');
        }
        $this->assertTrue(true);
    }
}
