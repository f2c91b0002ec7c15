"""A small interpreter: a stack-based virtual machine with jumps, running a program that sums
primes found by trial division.  Its dispatch loop is the kind of code PGO is meant for."""

GROUP = "python"

PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, LT, JMP, JZ, HALT = range(11)


def build():
    # Written out with explicit addresses to keep the listing readable.
    c = []
    c += [(PUSH, 2), (STORE, 0), (PUSH, 0), (STORE, 4)]          # 0-3
    loop = len(c)                                                  # 4
    c += [(LOAD, 0), (LOAD, 1), (LT, None), (JZ, None)]            # 4-7, JZ -> end
    c += [(PUSH, 1), (STORE, 3), (PUSH, 2), (STORE, 2)]            # 8-11
    inner = len(c)                                                 # 12
    c += [(LOAD, 2), (LOAD, 2), (MUL, None), (LOAD, 0), (PUSH, 1), (ADD, None), (LT, None), (JZ, None)]
    inner_exit = len(c) - 1
    c += [(LOAD, 0), (LOAD, 2), (MOD, None), (JZ, None)]           # divisible -> mark
    divisible = len(c) - 1
    c += [(JMP, None)]                                             # not divisible -> next d
    to_next = len(c) - 1
    mark = len(c)
    c += [(PUSH, 0), (STORE, 3)]
    next_d = len(c)
    c += [(LOAD, 2), (PUSH, 1), (ADD, None), (STORE, 2), (JMP, inner)]
    after = len(c)
    c += [(LOAD, 0), (LOAD, 3), (MUL, None), (LOAD, 4), (ADD, None), (STORE, 4)]
    c += [(LOAD, 0), (PUSH, 1), (ADD, None), (STORE, 0), (JMP, loop)]
    end = len(c)
    c += [(HALT, None)]
    c[7] = (JZ, end)
    c[inner_exit] = (JZ, after)
    c[divisible] = (JZ, mark)
    c[to_next] = (JMP, next_d)
    return c


def run(code, limit):
    stack = []
    push, pop = stack.append, stack.pop
    var = [0, limit, 0, 0, 0]
    pc = 0
    while True:
        op, arg = code[pc]
        pc += 1
        if op == LOAD:
            push(var[arg])
        elif op == PUSH:
            push(arg)
        elif op == STORE:
            var[arg] = pop()
        elif op == ADD:
            b = pop()
            push(pop() + b)
        elif op == SUB:
            b = pop()
            push(pop() - b)
        elif op == MUL:
            b = pop()
            push(pop() * b)
        elif op == MOD:
            b = pop()
            push(pop() % b)
        elif op == LT:
            b = pop()
            push(1 if pop() < b else 0)
        elif op == JZ:
            if not pop():
                pc = arg
        elif op == JMP:
            pc = arg
        else:
            return var[4]


CODE = build()


def bench():
    total = run(CODE, 400)
    assert total == 13887, total
    return total
