"""Start-up work: compiling a script's source (tokenizer, parser, compiler) and running its
top level, as the first run of a script without a cached .pyc does."""

GROUP = "startup"

SCRIPT = "\n".join(
    "class Handler%d:\n"
    "    limit = %d\n"
    "    def handle(self, req, *extra, **opts):\n"
    "        if req and req.get('kind') == 'k%d':\n"
    "            return [x * %d for x in range(self.limit) if x %% 3]\n"
    "        return {'status': %d, 'extra': extra, **opts}\n"
    "handlers_%d = [Handler%d() for _ in range(3)]\n" % ((z,) * 7)
    for z in range(120))


def bench():
    code = compile(SCRIPT, "<script>", "exec")
    scope = {}
    exec(code, scope)
    return len(scope)
