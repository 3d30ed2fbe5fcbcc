#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the uapi header and the CLI agree with the netlink spec.

Documentation/netlink/specs/rocect.yaml is the description of the ABI;
uapi/linux/rocect.h is written by hand beside it. This reads both and
fails on any difference in names, order or values, as ynl-gen would have
written the header: constants, enums (values from 0), attribute sets
(UNSPEC first, then each attribute, honouring "value:"), operations
(ROCECT_CMD_*, from 1). It also checks that the CLI prints each counter of
the stats set, and takes each setting of the config set, under the spec's
name (tools/rocect/stats.c, config.c), that qp and conn show every
attribute of their replies (qp.c, conn.c), and that rocect(8) and the admin
guide name each of them. Each setting's range and default in
kernel/settings.h must be the spec's range and what the uapi comment, the
module parameter's description, rocect(8) and the admin guide say.
Each operation's request policy in kernel/genl.c must take the attributes
the spec lists for its request (do and dump) and no others, and span the
whole attribute set (maxattr), so that a handler reads no attribute past
the array the core parsed into.

    spec_check.py [TOP]      exit 0 if they agree, else 1 with the list
"""
import re
import sys

import yaml

TOP = sys.argv[1] if len(sys.argv) > 1 else '.'
SPEC = f'{TOP}/Documentation/netlink/specs/rocect.yaml'
UAPI = f'{TOP}/uapi/linux/rocect.h'
CLI_STATS = f'{TOP}/tools/rocect/stats.c'
CLI_METRICS = f'{TOP}/tools/rocect/metrics.c'
CLI_CONFIG = f'{TOP}/tools/rocect/config.c'
CLI_QP = f'{TOP}/tools/rocect/qp.c'
CLI_CONN = f'{TOP}/tools/rocect/conn.c'
MAN = f'{TOP}/tools/rocect/rocect.8'
GUIDE = f'{TOP}/Documentation/admin-guide.rst'
SETTINGS = f'{TOP}/kernel/settings.h'
LIMITS = f'{TOP}/kernel/config_limits.h'
PARAMS = f'{TOP}/kernel/config.c'
GENL = f'{TOP}/kernel/genl.c'
TYPE_MAX = {'u8': 0xff, 'u16': 0xffff, 'u32': 0xffffffff}

problems = []


def c_name(prefix, name):
    return (prefix + name).upper().replace('-', '_')


def parse_header(text):
    """Constants of every enum and every numeric #define in the header."""
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    values = {}
    enums = []
    for body in re.findall(r'enum\s*\w*\s*\{(.*?)\}', text, flags=re.S):
        names, value = [], -1
        for item in body.split(','):
            item = item.strip()
            if not item:
                continue
            m = re.fullmatch(r'(\w+)(?:\s*=\s*(.+))?', item, flags=re.S)
            if not m:
                problems.append(f'header: cannot read enum entry {item!r}')
                continue
            if m.group(2) is None:
                value += 1
            else:
                expr = m.group(2).strip()
                value = values.get(expr) if expr in values else None
                if value is None:
                    try:
                        value = eval(re.sub(r'\b(__\w+)\b',
                                            lambda x: str(values[x.group(1)]),
                                            expr))
                    except (KeyError, SyntaxError):
                        problems.append(f'header: cannot evaluate {item!r}')
                        value = -1
            values[m.group(1)] = value
            names.append(m.group(1))
        enums.append(names)
    for name, val in re.findall(r'#define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+)\b',
                                text):
        values[name] = int(val, 0)
    return values, enums


def expect(values, name, value, where):
    if name not in values:
        problems.append(f'{where}: {name} missing from the header')
    elif values[name] != value:
        problems.append(f'{where}: {name} is {values[name]} in the header, '
                        f'{value} in the spec')


def check_enum_order(enums, names, where):
    """The header's enum holding names[0] lists exactly names, in order."""
    for e in enums:
        if names and names[0] in e:
            got = [n for n in e if not n.startswith('__') and
                   not n.endswith('_MAX')]
            if got != names:
                i = next((i for i, (a, b) in enumerate(zip(got, names))
                          if a != b), min(len(got), len(names)))
                problems.append(f'{where}: entry {i} is '
                                f'{(got + ["nothing"])[i]} in the header, '
                                f'{(names + ["nothing"])[i]} in the spec')
            return
    problems.append(f'{where}: no enum with {names[0] if names else "?"}')


def check_cli(spec, values, set_name, path, pattern, wanted, swap=False):
    """The CLI's table in path names each wanted attribute as the spec."""
    aset = next(s for s in spec['attribute-sets'] if s['name'] == set_name)
    pairs = re.findall(pattern, open(path).read())
    cli = dict((b, a) for a, b in pairs) if swap else dict(pairs)
    for a in aset['attributes']:
        n = c_name(aset['name-prefix'], a['name'])
        if not wanted(a) or n not in values:
            continue
        if n not in cli:
            problems.append(f'CLI: {set_name} has no name for {n}')
        elif cli[n] != a['name']:
            problems.append(f'CLI: {set_name} calls {n} {cli[n]!r}, '
                            f'the spec {a["name"]!r}')


def check_cli_objects(spec):
    """The CLI shows every attribute a qp-get or conn-get reply carries.

    An attribute whose spec doc says "(see X)" is shown as X (the u32
    counters the u64 ones replaced); the CLI names no attribute the spec
    lacks.
    """
    for op_name, set_name, path in (('qp-get', 'qp', CLI_QP),
                                    ('conn-get', 'conn', CLI_CONN)):
        op = next(o for o in spec['operations']['list']
                  if o['name'] == op_name)
        reply = (op.get('do') or op['dump'])['reply']['attributes']
        aset = next(s for s in spec['attribute-sets']
                    if s['name'] == set_name)
        attrs = {a['name']: a for a in aset['attributes']}
        prefix = aset['name-prefix']
        text = open(path).read()
        table = text[text.index(f'rd_field {set_name}_fields[]'):]
        table = table[:table.index('RD_FIELDS_END')]
        shown = set(re.findall(r'\b(ROCECT_A_\w+)', table))
        known = {c_name(prefix, n) for n in attrs}
        for n in sorted(shown - known):
            problems.append(f'CLI: {set_name} shows {n}, not in the spec')
        for name in reply:
            see = re.search(r'\(see ([\w-]+)\)', attrs[name].get('doc', ''))
            want = c_name(prefix, see.group(1) if see else name)
            if want not in shown:
                problems.append(f'CLI: {path.split("/")[-1]} does not show '
                                f'{c_name(prefix, name)}')


def check_wire_lists(spec):
    """The lists (kernel/roce_*.h) name what the spec's enums name, in order."""
    defs = {d['name']: d for d in spec.get('definitions', [])}
    for macro, enum, tail in (('ROCE_CLASS', 'class', []),
                              ('ROCE_MAL', 'malformed', []),
                              ('ROCE_CM_ATTR', 'cm', ['other'])):
        path = f'{TOP}/kernel/' + {'class': 'roce_classes.h',
                                   'malformed': 'roce_malformed.h',
                                   'cm': 'roce_cm_attrs.h'}[enum]
        names = re.findall(r'^' + macro + r'\([A-Z0-9_]+,\s*"([^"]+)"\)',
                           open(path).read(), re.M) + tail
        want = [e if isinstance(e, str) else e['name']
                for e in defs.get(enum, {}).get('entries', [])]
        if names != want:
            problems.append(f'{path}: names {names}, the spec\'s '
                            f'enum {enum} {want}')


def check_metrics():
    """Each counter of the CLI's stats has one row in metrics.c's table."""
    names = re.findall(r'\{\s*ROCECT_A_STATS_\w+,\s*"([^"]+)"\s*\}',
                       open(CLI_STATS).read())
    text = open(CLI_METRICS).read()
    table = text[text.index('} counters[] = {'):]
    rows = re.findall(r'\{\s*"([^"]+)",\s*"rocect_', table[:table.index('};')])
    for n in names:
        if rows.count(n) != 1:
            problems.append(f'CLI: metrics.c has {rows.count(n)} rows for '
                            f'the counter {n!r}, not 1')
    for n in set(rows) - set(names):
        problems.append(f'CLI: metrics.c names {n!r}, which stats has not')


def check_docs(spec):
    """rocect(8) and the admin guide name every counter and setting."""
    man = re.sub(r'\\f[BIRP]', ' ', open(MAN).read()).replace('\\-', '-')
    guide = open(GUIDE).read()
    for set_name in ('stats', 'config'):
        aset = next(s for s in spec['attribute-sets'] if s['name'] == set_name)
        for a in aset['attributes']:
            if a['type'] == 'pad':
                continue
            word = r'(?<![\w-])' + re.escape(a['name']) + r'(?![\w-])'
            if not re.search(word, man):
                problems.append(f'rocect.8: no {set_name} {a["name"]}')
            if not re.search(r'``[^`]*' + word + r'[^`]*``', guide):
                problems.append(f'admin-guide.rst: no {set_name} {a["name"]}')


def c_eval(expr, names):
    """A C constant expression of numbers, shifts, products and names."""
    expr = re.sub(r'\b[A-Z_][A-Z0-9_]*\b', lambda m: str(names[m.group(0)]),
                  expr)
    if not re.fullmatch(r'[0-9xa-fA-F()<>*+\- ]+', expr):
        raise ValueError(expr)
    return eval(expr)


def read_settings(values):
    """settings.h's rows: (name, attribute, type, min, max, default)."""
    names = dict(values, U8_MAX=0xff, U32_MAX=0xffffffff)
    for name, expr in re.findall(r'#define\s+(\w+)\s+(\(.*\))',
                                 open(UAPI).read()):
        names[name] = c_eval(expr, names)
    text = re.sub(r'/\*.*?\*/', '', open(LIMITS).read(), flags=re.S)
    body = re.search(r'enum rocect_config_limits\s*\{(.*?)\}', text, re.S)
    for name, expr in re.findall(r'(\w+)\s*=\s*([^,]+),', body.group(1)):
        names[name] = c_eval(expr, names)
    text = re.sub(r'/\*.*?\*/', '', open(SETTINGS).read(), flags=re.S)
    rows = []
    for args in re.findall(r'ROCECT_SETTING\((.*?)\)\n', text, re.S):
        name, attr, typ, lo, hi, default = [a.strip() for a in
                                            args.split(',')]
        rows.append((name, attr, typ, c_eval(lo, names), c_eval(hi, names),
                     c_eval(default, names)))
    return rows


def says(where, text, lo, hi, default, onoff=False):
    """What text says of a setting agrees with its range and default: a
    range it gives names both ends, a default it gives is the default."""
    nums = re.findall(r'\d+', text)
    if re.search(r'\d+ ?(?:-|to|\.\.|or) ?\d+', text) and \
            not (str(lo) in nums and str(hi) in nums):
        problems.append(f'{where}: says {" ".join(text.split())[:70]!r}, '
                        f'the range is '
                        f'{lo} to {hi}')
    m = re.search(r'default (\d+|on|off)\b', text)
    if m:
        got = {'on': '1', 'off': '0'}.get(m.group(1), m.group(1))
        if got != str(default) and not (onoff and m.group(1).isdigit()):
            problems.append(f'{where}: says default {m.group(1)}, settings.h '
                            f'{default}')


def check_settings(spec, values):
    """Each setting's range and default agree wherever they are written."""
    aset = next(s for s in spec['attribute-sets'] if s['name'] == 'config')
    attrs = {c_name(aset['name-prefix'], a['name']): a
             for a in aset['attributes']}
    enums = {d['name']: d for d in spec.get('definitions', [])}
    uapi = open(UAPI).read()
    params = open(PARAMS).read()
    man = re.sub(r'\\f[BIRP]', '', open(MAN).read()).replace('\\-', '-')
    man = re.sub(r'^\.(?:BR?|BI) ', '', man, flags=re.M)
    guide = open(GUIDE).read()
    for name, attr, typ, lo, hi, default in read_settings(values):
        full = f'ROCECT_A_CONFIG_{attr}'
        a = attrs.get(full)
        if a is None:
            problems.append(f'settings.h: {full} is not in the spec')
            continue
        if 'enum' in a:
            slo, shi = 0, len(enums[a['enum']]['entries']) - 1
        else:
            checks = a.get('checks', {})
            slo = checks.get('min', 0)
            shi = checks.get('max', TYPE_MAX[a['type']])
        if (slo, shi) != (lo, hi) or a['type'] != typ:
            problems.append(f'settings.h: {name} is {typ} {lo} to {hi}, the '
                            f'spec {a["type"]} {slo} to {shi}')
        if not lo <= default <= hi:
            problems.append(f'settings.h: {name} defaults to {default}, '
                            f'outside {lo} to {hi}')
        m = re.search(rf'\b{full},\s*/\*(.*?)\*/', uapi)
        if m and re.search(r'\d+\.\.\d+', m.group(1)) and \
                f'{lo}..{hi}' not in m.group(1):
            problems.append(f'uapi: {full} says {m.group(1).strip()!r}, the '
                            f'range is {lo}..{hi}')
        m = re.search(rf'MODULE_PARM_DESC\({name}, "(.*?)"\);', params)
        if m is None:
            problems.append(f'config.c: no description of parameter {name}')
        else:
            says(f'parameter {name}', m.group(1), lo, hi, default)
        m = re.search(rf'``{name}``(?:, ``\w+``)* \(([^)]*(?:\([^)]*\))?[^)]*)\)',
                      guide)
        if m is None:
            problems.append(f'admin-guide.rst: no ``{name}`` (range, default)')
        else:
            says(f'admin-guide.rst: {name}', m.group(1), lo, hi, default)
        m = re.search(rf'^\.TP\n{re.escape(a["name"])}\b(.*?)(?=^\.(?:TP|SH))',
                      man, re.M | re.S)
        # (One paragraph for several settings says nothing checkable.)
        if m:
            says(f'rocect.8: {a["name"]}', m.group(1), lo, hi, default,
                 onoff=hi == 1)


def check_policies(spec):
    """genl.c's policy of each operation against the spec's requests."""
    text = re.sub(r'/\*.*?\*/', '', open(GENL).read(), flags=re.S)
    macros = {m.group(1): m.group(2) for m in re.finditer(
        r'#define\s+(\w+)\s*((?:.*\\\n)*.*)', text)}
    policies, sizes = {}, {}
    for m in re.finditer(r'nla_policy\s+(\w+)\[\s*(\w+)\s*\+\s*1\s*\]\s*=\s*'
                         r'\{(.*?)\};', text, flags=re.S):
        body = m.group(3)
        for name, macro in macros.items():
            body = re.sub(r'\b%s\b' % name, macro, body)
        attrs = set(re.findall(r'\[(ROCECT_A_\w+)\]', body))
        if '#include "settings.h"' in body:
            attrs |= {'ROCECT_A_CONFIG_' + a for a in re.findall(
                r'^ROCECT_SETTING\(\s*\w+\s*,\s*(\w+)',
                open(SETTINGS).read(), flags=re.M)}
        policies[m.group(1)], sizes[m.group(1)] = attrs, m.group(2)
    ops = {}
    for m in re.finditer(r'\{\s*\.cmd\s*=\s*(\w+),(.*?)\}', text, flags=re.S):
        p = re.search(r'\.policy\s*=\s*(\w+)', m.group(2))
        ops[m.group(1)] = policies.get(p.group(1)) if p else set()
        if p and p.group(1) not in policies:
            problems.append(f'genl.c: {m.group(1)}: no policy {p.group(1)}')
            continue
        if not p:
            continue
        # A handler may read any attribute of the set: the whole set.
        top = re.search(r'\.maxattr\s*=\s*(\w+)', m.group(2))
        whole = re.match(r'ROCECT_A_[A-Z0-9]+_', min(ops[m.group(1)]))[0] + 'MAX'
        if not top or top.group(1) != whole or sizes[p.group(1)] != whole:
            problems.append(f'genl.c: {m.group(1)}: its policy and maxattr '
                            f'must span its attribute set ({whole})')
    family = spec['name']
    for op in spec['operations']['list']:
        if 'notify' in op or 'event' in op:
            continue
        cmd = c_name(f'{family}-cmd-', op['name'])
        prefix = next(s.get('name-prefix', f'{family}-a-{s["name"]}-')
                      for s in spec['attribute-sets']
                      if s['name'] == op['attribute-set'])
        want = set()
        for kind in ('do', 'dump'):
            req = (op.get(kind) or {}).get('request') or {}
            want |= {c_name(prefix, a) for a in req.get('attributes', [])}
        if cmd not in ops:
            problems.append(f'genl.c: no operation {cmd}')
            continue
        if ops[cmd] is not None and ops[cmd] != want:
            problems.append(f'genl.c: {cmd} takes {sorted(ops[cmd] - want)} '
                            f'beyond the spec, lacks {sorted(want - ops[cmd])}')


def main():
    spec = yaml.safe_load(open(SPEC))
    values, enums = parse_header(open(UAPI).read())
    family = spec['name']

    for d in spec.get('definitions', []):
        prefix = d.get('name-prefix', f'{family}-{d["name"]}-')
        if d['type'] == 'const':
            expect(values, c_name(f'{family}-', d['name']), d['value'],
                   f'const {d["name"]}')
        elif d['type'] == 'enum':
            names = [c_name(prefix, e) for e in d['entries']]
            for i, n in enumerate(names):
                expect(values, n, i, f'enum {d["name"]}')
            check_enum_order(enums, names, f'enum {d["name"]}')

    for s in spec['attribute-sets']:
        prefix = s.get('name-prefix', f'{family}-a-{s["name"]}-')
        names, value = [c_name(prefix, 'unspec')], 0
        expect(values, names[0], 0, f'attribute-set {s["name"]}')
        for a in s['attributes']:
            value = a.get('value', value + 1)
            n = c_name(prefix, a['name'])
            names.append(n)
            expect(values, n, value, f'attribute-set {s["name"]}')
        check_enum_order(enums, names, f'attribute-set {s["name"]}')

    ops = spec['operations']['list']
    names = [c_name(f'{family}-cmd-', 'unspec')]
    for i, op in enumerate(ops, start=1):
        n = c_name(f'{family}-cmd-', op['name'])
        names.append(n)
        expect(values, n, op.get('value', i), 'operations')
    check_enum_order(enums, names, 'operations')

    # Each row: attribute and name.
    check_cli(spec, values, 'stats', CLI_STATS, r'\{\s*(ROCECT_A_STATS_\w+),'
              r'\s*"([^"]+)"\s*\}', lambda a: a['type'] == 'u64')
    check_metrics()
    check_wire_lists(spec)
    check_cli_objects(spec)
    check_cli(spec, values, 'config', CLI_CONFIG, r'RD_\w+\(\s*"([^"]+)",\s*'
              r'(ROCECT_A_CONFIG_\w+),', lambda a: True, swap=True)

    check_docs(spec)
    check_settings(spec, values)
    check_policies(spec)

    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
