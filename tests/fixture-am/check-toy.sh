#!/bin/sh
# The program's answers, whatever it was built with.
test "`./toy ppas 10`" = 90 && test "`./toy version`" = "toy 1.0"
