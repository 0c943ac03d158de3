<?php
namespace Demo\Tests;

use PHPUnit\Framework\TestCase;

final class BrokenSetupTest extends TestCase
{
    public static function setUpBeforeClass(): void { throw new \LogicException("no database"); }
    public function testNeverRuns(): void { $this->assertTrue(true); }
}
