"""A small parser: a tokenizer and a recursive-descent parser for an arithmetic language with
variables and function calls, building a tree that is then evaluated."""

GROUP = "python"

SOURCE = """
let a = 3 + 4 * (2 - 1);
let b = max(a, 10) / 2;
let c = a * a - b * (a + 1) / (b - 1);
let d = min(c, a + b * 2, 100) + neg(a - b);
""" * 8

FUNCS = {"max": max, "min": min, "neg": lambda x: -x}


def tokenize(text):
    tokens = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isdigit():
            j = i
            while j < n and text[j].isdigit():
                j += 1
            tokens.append(("num", int(text[i:j])))
            i = j
        elif ch.isalpha():
            j = i
            while j < n and text[j].isalnum():
                j += 1
            tokens.append(("name", text[i:j]))
            i = j
        else:
            tokens.append(("op", ch))
            i += 1
    tokens.append(("end", None))
    return tokens


class Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos]

    def take(self, kind=None, value=None):
        tok = self.tokens[self.pos]
        if (kind and tok[0] != kind) or (value and tok[1] != value):
            raise SyntaxError("expected %s %s, got %r" % (kind, value, tok))
        self.pos += 1
        return tok

    def program(self):
        stmts = []
        while self.peek()[0] != "end":
            self.take("name", "let")
            name = self.take("name")[1]
            self.take("op", "=")
            stmts.append((name, self.expr()))
            self.take("op", ";")
        return stmts

    def expr(self):
        node = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            node = (op, node, self.term())
        return node

    def term(self):
        node = self.factor()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            node = (op, node, self.factor())
        return node

    def factor(self):
        kind, value = self.take()
        if kind == "num":
            return ("num", value)
        if kind == "op" and value == "(":
            node = self.expr()
            self.take("op", ")")
            return node
        if kind == "name":
            if self.peek() == ("op", "("):
                self.take()
                args = [self.expr()]
                while self.peek() == ("op", ","):
                    self.take()
                    args.append(self.expr())
                self.take("op", ")")
                return ("call", value, args)
            return ("var", value)
        raise SyntaxError("unexpected %r" % (value,))


def evaluate(node, env):
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "var":
        return env[node[1]]
    if kind == "call":
        return FUNCS[node[1]](*[evaluate(a, env) for a in node[2]])
    a, b = evaluate(node[1], env), evaluate(node[2], env)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    return a // b if b else 0


def bench():
    env = {}
    for _ in range(3):
        for name, tree in Parser(tokenize(SOURCE)).program():
            env[name] = evaluate(tree, env)
    return env["d"]
