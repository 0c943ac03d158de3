echo "test_math ... FAILED"; echo "0 passed, 1 failed"; exit 1
