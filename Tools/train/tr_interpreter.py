"""Imitates a scripting-language implementation written in Python (template engines, config
languages, query DSLs and teaching interpreters are built this way): a regular-expression
tokenizer, a recursive-descent parser with precedence climbing that builds an AST of small
__slots__ classes, and a tree-walking evaluator with nested environments, first-class closures,
lists, strings, builtins, and errors reported through a custom exception hierarchy (control
flow for `return` uses an exception too).  Interpreter paths: regex scanning, many small object
allocations, method dispatch through a dict of bound methods, deep recursion, dict lookups
along environment chains, exception raising and catching as control flow.
"""
import re
import sys

import trainlib

NAME = "tr_interpreter"


class LangError(Exception):
    def __init__(self, message, line):
        super().__init__("line %d: %s" % (line, message))
        self.line = line


class ScanError(LangError):
    pass


class GrammarError(LangError):
    pass


class EvalError(LangError):
    pass


class ReturnSignal(Exception):
    def __init__(self, value):
        self.value = value


TOKEN_RE = re.compile(r"""
    (?P<space>[ \t]+) | (?P<newline>\n) | (?P<comment>\#[^\n]*)
  | (?P<number>\d+(?:\.\d+)?)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>==|!=|<=|>=|&&|\|\||[-+*/%<>=!(){}\[\],;.])
  | (?P<bad>.)
""", re.VERBOSE)
KEYWORDS = {"let", "fn", "if", "else", "while", "return", "true", "false", "nil", "print"}
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


class Token:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self):
        return "Token(%s, %r, %d)" % (self.kind, self.text, self.line)


def scan(source):
    tokens = []
    line = 1
    for m in TOKEN_RE.finditer(source):
        kind = m.lastgroup
        text = m.group()
        if kind == "newline":
            line += 1
        elif kind in ("space", "comment"):
            continue
        elif kind == "bad":
            raise ScanError("unexpected character %r" % text, line)
        else:
            if kind == "name" and text in KEYWORDS:
                kind = text
            elif kind == "string":
                text = re.sub(r"\\(.)", lambda e: ESCAPES.get(e.group(1), e.group(1)), text[1:-1])
            tokens.append(Token(kind, text, line))
    tokens.append(Token("eof", "", line))
    return tokens


class Ast:
    __slots__ = ("line",)


def node_class(name, fields):
    """AST node classes with __slots__, a constructor and a repr, made from a field list."""
    def __init__(self, line, *values):
        self.line = line
        for field, value in zip(fields, values):
            setattr(self, field, value)

    def __repr__(self):
        return "%s(%s)" % (name, ", ".join(repr(getattr(self, f)) for f in fields))

    return type(name, (Ast,), {"__slots__": tuple(fields), "__init__": __init__, "__repr__": __repr__})


Literal = node_class("Literal", ["value"])
Name = node_class("Name", ["ident"])
Unary = node_class("Unary", ["op", "operand"])
Binary = node_class("Binary", ["op", "left", "right"])
Logical = node_class("Logical", ["op", "left", "right"])
Call = node_class("Call", ["callee", "args"])
Index = node_class("Index", ["target", "key"])
ListExpr = node_class("ListExpr", ["items"])
FnExpr = node_class("FnExpr", ["params", "body", "label"])
Let = node_class("Let", ["ident", "value"])
Assign = node_class("Assign", ["ident", "value"])
SetIndex = node_class("SetIndex", ["target", "key", "value"])
If = node_class("If", ["test", "then", "otherwise"])
While = node_class("While", ["test", "body"])
Return = node_class("Return", ["value"])
Print = node_class("Print", ["value"])
ExprStmt = node_class("ExprStmt", ["value"])
Block = node_class("Block", ["body"])

BINARY_PRECEDENCE = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4,
                     "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}


class Grammar:
    def __init__(self, tokens):
        self.tokens = tokens
        self.at = 0

    def lookahead(self):
        return self.tokens[self.at]

    def advance(self):
        tok = self.tokens[self.at]
        self.at += 1
        return tok

    def accept(self, text):
        if self.tokens[self.at].text == text and self.tokens[self.at].kind != "string":
            self.at += 1
            return True
        return False

    def expect(self, text):
        tok = self.advance()
        if tok.text != text or tok.kind == "string":
            raise GrammarError("expected %r, found %r" % (text, tok.text or tok.kind), tok.line)
        return tok

    def parse_script(self):
        body = []
        while self.lookahead().kind != "eof":
            body.append(self.parse_statement())
        return Block(1, body)

    def parse_block(self):
        line = self.expect("{").line
        body = []
        while not self.accept("}"):
            if self.lookahead().kind == "eof":
                raise GrammarError("unclosed block", line)
            body.append(self.parse_statement())
        return Block(line, body)

    def parse_statement(self):
        tok = self.lookahead()
        kind = tok.kind
        if kind == "let":
            self.advance()
            ident = self.advance()
            if ident.kind != "name":
                raise GrammarError("expected a name after let", ident.line)
            self.expect("=")
            value = self.parse_expression()
            self.expect(";")
            return Let(tok.line, ident.text, value)
        if kind == "fn" and self.tokens[self.at + 1].kind == "name":
            self.advance()
            ident = self.advance().text
            fn = self.parse_function_rest(tok.line, ident)
            return Let(tok.line, ident, fn)
        if kind == "if":
            self.advance()
            test = self.parse_expression()
            then = self.parse_block()
            otherwise = None
            if self.accept("else"):
                otherwise = self.parse_statement() if self.lookahead().kind == "if" else self.parse_block()
            return If(tok.line, test, then, otherwise)
        if kind == "while":
            self.advance()
            return While(tok.line, self.parse_expression(), self.parse_block())
        if kind == "return":
            self.advance()
            value = None if self.lookahead().text == ";" else self.parse_expression()
            self.expect(";")
            return Return(tok.line, value)
        if kind == "print":
            self.advance()
            value = self.parse_expression()
            self.expect(";")
            return Print(tok.line, value)
        if tok.text == "{":
            return self.parse_block()
        target = self.parse_expression()
        if self.accept("="):
            value = self.parse_expression()
            self.expect(";")
            if isinstance(target, Name):
                return Assign(tok.line, target.ident, value)
            if isinstance(target, Index):
                return SetIndex(tok.line, target.target, target.key, value)
            raise GrammarError("cannot assign to this", tok.line)
        self.expect(";")
        return ExprStmt(tok.line, target)

    def parse_function_rest(self, line, label):
        self.expect("(")
        params = []
        if not self.accept(")"):
            while True:
                tok = self.advance()
                if tok.kind != "name":
                    raise GrammarError("bad parameter %r" % tok.text, tok.line)
                params.append(tok.text)
                if self.accept(")"):
                    break
                self.expect(",")
        return FnExpr(line, params, self.parse_block(), label)

    def parse_expression(self, min_prec=1):
        left = self.parse_unary()
        while True:
            tok = self.lookahead()
            prec = BINARY_PRECEDENCE.get(tok.text) if tok.kind == "op" else None
            if prec is None or prec < min_prec:
                return left
            self.advance()
            right = self.parse_expression(prec + 1)
            cls = Logical if tok.text in ("&&", "||") else Binary
            left = cls(tok.line, tok.text, left, right)

    def parse_unary(self):
        tok = self.lookahead()
        if tok.kind == "op" and tok.text in ("-", "!"):
            self.advance()
            return Unary(tok.line, tok.text, self.parse_unary())
        return self.parse_postfix(self.parse_primary())

    def parse_postfix(self, node):
        while True:
            tok = self.lookahead()
            if tok.kind != "op":
                return node
            if tok.text == "(":
                self.advance()
                args = []
                if not self.accept(")"):
                    args.append(self.parse_expression())
                    while self.accept(","):
                        args.append(self.parse_expression())
                    self.expect(")")
                node = Call(tok.line, node, args)
            elif tok.text == "[":
                self.advance()
                key = self.parse_expression()
                self.expect("]")
                node = Index(tok.line, node, key)
            else:
                return node

    def parse_primary(self):
        tok = self.advance()
        kind = tok.kind
        if kind == "number":
            return Literal(tok.line, float(tok.text) if "." in tok.text else int(tok.text))
        if kind == "string":
            return Literal(tok.line, tok.text)
        if kind in ("true", "false"):
            return Literal(tok.line, kind == "true")
        if kind == "nil":
            return Literal(tok.line, None)
        if kind == "name":
            return Name(tok.line, tok.text)
        if kind == "fn":
            return self.parse_function_rest(tok.line, "<anonymous>")
        if tok.text == "(":
            inner = self.parse_expression()
            self.expect(")")
            return inner
        if tok.text == "[":
            items = []
            if not self.accept("]"):
                items.append(self.parse_expression())
                while self.accept(","):
                    items.append(self.parse_expression())
                self.expect("]")
            return ListExpr(tok.line, items)
        raise GrammarError("no expression can start with %r" % (tok.text or tok.kind), tok.line)


class Scope:
    __slots__ = ("names", "parent")

    def __init__(self, parent=None):
        self.names = {}
        self.parent = parent

    def find(self, ident, line):
        scope = self
        while scope is not None:
            if ident in scope.names:
                return scope
            scope = scope.parent
        raise EvalError("undefined name %r" % ident, line)


class Closure:
    __slots__ = ("fn", "scope")

    def __init__(self, fn, scope):
        self.fn, self.scope = fn, scope

    def __repr__(self):
        return "<fn %s>" % self.fn.label


def show(value):
    if value is None:
        return "nil"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        return ("%.6f" % value).rstrip("0").rstrip(".")
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return str(value)


class Evaluator:
    def __init__(self, step_limit=10 ** 7):
        self.output = []
        self.steps = 0
        self.step_limit = step_limit
        self.globals = Scope()
        builtins = {"len": len, "str": show, "push": lambda xs, v: xs.append(v) or xs,
                    "range": lambda n: list(range(n)), "upper": str.upper, "chr": chr, "ord": ord,
                    "int": int, "sqrt": lambda x: x ** 0.5}
        self.globals.names.update(builtins)
        self.dispatch = {cls: getattr(self, "eval_" + cls.__name__.lower())
                         for cls in (Literal, Name, Unary, Binary, Logical, Call, Index, ListExpr, FnExpr, Let,
                                     Assign, SetIndex, If, While, Return, Print, ExprStmt, Block)}

    def execute(self, source):
        tree = Grammar(scan(source)).parse_script()
        for stmt in tree.body:
            self.visit(stmt, self.globals)
        return self.output

    def visit(self, node, scope):
        self.steps += 1
        if self.steps > self.step_limit:
            raise EvalError("step limit reached", node.line)
        return self.dispatch[type(node)](node, scope)

    def eval_literal(self, node, scope):
        return node.value

    def eval_name(self, node, scope):
        return scope.find(node.ident, node.line).names[node.ident]

    def eval_unary(self, node, scope):
        value = self.visit(node.operand, scope)
        if node.op == "-":
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise EvalError("cannot negate %s" % show(value), node.line)
            return -value
        return not self.truthy(value)

    @staticmethod
    def truthy(value):
        return not (value is None or value is False or value == 0 and not isinstance(value, bool))

    def eval_logical(self, node, scope):
        left = self.visit(node.left, scope)
        if node.op == "&&":
            return self.visit(node.right, scope) if self.truthy(left) else left
        return left if self.truthy(left) else self.visit(node.right, scope)

    def eval_binary(self, node, scope):
        a = self.visit(node.left, scope)
        b = self.visit(node.right, scope)
        op = node.op
        try:
            if op == "+":
                if isinstance(a, str) or isinstance(b, str):
                    return show(a) + show(b)
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "/":
                return a // b if isinstance(a, int) and isinstance(b, int) else a / b
            if op == "%":
                return a % b
            if op == "==":
                return a == b
            if op == "!=":
                return a != b
            if op == "<":
                return a < b
            if op == "<=":
                return a <= b
            if op == ">":
                return a > b
            return a >= b
        except ZeroDivisionError:
            raise EvalError("division by zero", node.line) from None
        except TypeError as exc:
            raise EvalError("bad operands for %s: %s" % (op, exc), node.line) from exc

    def eval_call(self, node, scope):
        callee = self.visit(node.callee, scope)
        args = [self.visit(a, scope) for a in node.args]
        if isinstance(callee, Closure):
            fn = callee.fn
            if len(args) != len(fn.params):
                raise EvalError("%s takes %d arguments, got %d" % (fn.label, len(fn.params), len(args)), node.line)
            frame = Scope(callee.scope)
            frame.names.update(zip(fn.params, args))
            try:
                for stmt in fn.body.body:
                    self.visit(stmt, frame)
            except ReturnSignal as ret:
                return ret.value
            return None
        if callable(callee):
            try:
                return callee(*args)
            except (TypeError, ValueError) as exc:
                raise EvalError("builtin failed: %s" % exc, node.line) from exc
        raise EvalError("%s is not callable" % show(callee), node.line)

    def eval_index(self, node, scope):
        target = self.visit(node.target, scope)
        key = self.visit(node.key, scope)
        try:
            return target[key]
        except (IndexError, TypeError, KeyError):
            raise EvalError("bad index %s" % show(key), node.line) from None

    def eval_listexpr(self, node, scope):
        return [self.visit(item, scope) for item in node.items]

    def eval_fnexpr(self, node, scope):
        return Closure(node, scope)

    def eval_let(self, node, scope):
        scope.names[node.ident] = self.visit(node.value, scope)

    def eval_assign(self, node, scope):
        owner = scope.find(node.ident, node.line)
        owner.names[node.ident] = self.visit(node.value, scope)

    def eval_setindex(self, node, scope):
        target = self.visit(node.target, scope)
        key = self.visit(node.key, scope)
        if not isinstance(target, list) or not isinstance(key, int) or not -len(target) <= key < len(target):
            raise EvalError("cannot set index %s" % show(key), node.line)
        target[key] = self.visit(node.value, scope)

    def eval_if(self, node, scope):
        if self.truthy(self.visit(node.test, scope)):
            self.visit(node.then, scope)
        elif node.otherwise is not None:
            self.visit(node.otherwise, scope)

    def eval_while(self, node, scope):
        while self.truthy(self.visit(node.test, scope)):
            self.visit(node.body, scope)

    def eval_return(self, node, scope):
        raise ReturnSignal(None if node.value is None else self.visit(node.value, scope))

    def eval_print(self, node, scope):
        self.output.append(show(self.visit(node.value, scope)))

    def eval_exprstmt(self, node, scope):
        self.visit(node.value, scope)

    def eval_block(self, node, scope):
        inner = Scope(scope)
        for stmt in node.body:
            self.visit(stmt, inner)


PROGRAMS = [
    ("recursion", """
fn fibo(n) { if n < 2 { return n; } return fibo(n - 1) + fibo(n - 2); }
fn fact(n) { if n <= 1 { return 1; } return n * fact(n - 1); }
print fibo(%(fib)d);
print fact(20);
""", lambda p: [str(p["fib_value"]), "2432902008176640000"]),
    ("closures", """
fn make_counter(step) {
  let count = 0;
  return fn() { count = count + step; return count; };
}
let a = make_counter(1);
let b = make_counter(10);
let i = 0;
while i < %(loops)d { a(); b(); i = i + 1; }
print a() + b();
let adders = [];
i = 0;
while i < 5 { let k = i; push(adders, fn(x) { return x + k; }); i = i + 1; }
print adders[4](100);
""", lambda p: [str((p["loops"] + 1) * 11), "104"]),
    ("lists", """
fn sort(xs) {
  let n = len(xs);
  let i = 0;
  while i < n {
    let j = 0;
    while j < n - i - 1 {
      if xs[j] > xs[j + 1] { let t = xs[j]; xs[j] = xs[j + 1]; xs[j + 1] = t; }
      j = j + 1;
    }
    i = i + 1;
  }
  return xs;
}
let data = [];
let seed = 7;
let k = 0;
while k < %(items)d { seed = (seed * 1103515245 + 12345) %% 2147483648; push(data, seed %% 1000); k = k + 1; }
let sorted = sort(data);
let ok = true;
k = 1;
while k < len(sorted) { if sorted[k - 1] > sorted[k] { ok = false; } k = k + 1; }
print ok;
print len(sorted);
""", lambda p: ["true", str(p["items"])]),
    ("strings", """
fn fizzbuzz(n) {
  let out = "";
  let i = 1;
  while i <= n {
    if i %% 15 == 0 { out = out + "FizzBuzz"; }
    else if i %% 3 == 0 { out = out + "Fizz"; }
    else if i %% 5 == 0 { out = out + "Buzz"; }
    else { out = out + i; }
    out = out + ",";
    i = i + 1;
  }
  return out;
}
let s = fizzbuzz(15);
print s;
print upper("caf" + chr(233)) + " " + str(len(s)) + " \\"quoted\\"";
print sqrt(2.0) * sqrt(2.0) > 1.99 && !(1 == 2) || nil;
""", lambda p: ["1,2,Fizz,4,Buzz,Fizz,7,8,Fizz,Buzz,11,Fizz,13,14,FizzBuzz,", 'CAFÉ 58 "quoted"', "true"]),
]

BROKEN = [
    ("let x = 1 +;", GrammarError), ("print y;", EvalError), ("let a = 1 / 0;", EvalError),
    ("fn f(a) { return a; } f(1, 2);", EvalError), ("let s = \"abc\" - 1;", EvalError),
    ("while true { let z = 1; ", GrammarError), ("let q = 3 $ 4;", ScanError), ("5();", EvalError),
    ("let l = [1, 2]; l[5] = 0;", EvalError), ("let w = -\"text\";", EvalError),
]


def run_programs(fib_n, loops, items):
    params = {"fib": fib_n, "loops": loops, "items": items}
    a, b = 0, 1
    for _ in range(fib_n):
        a, b = b, a + b
    params["fib_value"] = a
    outputs = []
    steps = 0
    for label, source, expected in PROGRAMS:
        ev = Evaluator()
        out = ev.execute(source % params)
        trainlib.check_equal(out, expected(params), "program %s" % label)
        outputs.append(out)
        steps += ev.steps
    return outputs, steps


def run_broken():
    messages = []
    for source, error in BROKEN:
        try:
            Evaluator().execute(source)
        except LangError as exc:
            trainlib.check(isinstance(exc, error), "%r raised %s, expected %s" % (source, type(exc).__name__,
                                                                                  error.__name__))
            messages.append(str(exc))
        else:
            trainlib.check(False, "%r did not fail" % source)
    try:
        Evaluator(step_limit=600).execute("fn loop(n) { return loop(n + 1); } loop(0);")
    except EvalError as exc:
        messages.append(str(exc))
    return messages


def main(scale):
    results = []
    for rep in range(trainlib.reps(55, scale)):
        results.append(run_programs(12 + rep % 4, 400, 50))
        results.append(run_broken())
    tree = Grammar(scan("let v = [1, 2 * 3, -x[0]](a, b);")).parse_script()
    results.append(repr(tree.body))
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
