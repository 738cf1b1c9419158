#!/usr/bin/env python3
"""Which of the CUDA toolkit's device functions the shim provides: a table, per header.

Lists every __device__ function (and operator) that an sm_90 device pass of the toolkit's headers
declares for fp16 (cuda_fp16.h/.hpp), bf16 (cuda_bf16.h/.hpp), the integer, bit, SIMD and
rounding intrinsics (sm_20/32/61_intrinsics.h, crt/device_functions.h), the atomics
(device_atomic_functions.h, sm_20/32/60_atomic_functions.h) and the warp functions
(sm_30_intrinsics.h, crt/sm_70_rt.h, crt/sm_80_rt.h, crt/sm_90_rt.h); the toolkit's own nvcc
preprocesses the headers (`nvcc -arch=sm_90 -E`), so exactly what a kernel compiled for sm_90 sees
is listed. Then it writes one kernel file that calls each function once (case `k` of a switch on
the kernel's first argument), compiles it with the built `warpsim run` (a function whose call
does not compile is taken out, with the compiler's first message, and the file compiled again),
and runs every case that compiled, on one warp. It writes the table (Markdown) and prints totals.

  python3 scripts/shim_coverage.py [--warpsim build/cli/warpsim] [--cuda /usr/local/cuda]
                                   [--out docs/shim_coverage.md] [--jobs 2]

Needs the CUDA toolkit (nvcc) and a built warpsim. Python 3.9+, no packages.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

HEADERS = [  # (header as the table names it, its files)
    ('cuda_fp16.h', ['cuda_fp16.h', 'cuda_fp16.hpp']),
    ('cuda_bf16.h', ['cuda_bf16.h', 'cuda_bf16.hpp']),
    ('sm_20_intrinsics.h', ['sm_20_intrinsics.h', 'sm_20_intrinsics.hpp']),
    ('sm_30_intrinsics.h', ['sm_30_intrinsics.h', 'sm_30_intrinsics.hpp']),
    ('sm_32_intrinsics.h', ['sm_32_intrinsics.h', 'sm_32_intrinsics.hpp']),
    ('sm_61_intrinsics.h', ['sm_61_intrinsics.h', 'sm_61_intrinsics.hpp']),
    ('crt/device_functions.h', ['crt/device_functions.h', 'crt/device_functions.hpp']),
    ('device_atomic_functions.h', ['device_atomic_functions.h', 'device_atomic_functions.hpp']),
    ('sm_20_atomic_functions.h', ['sm_20_atomic_functions.h', 'sm_20_atomic_functions.hpp']),
    ('sm_32_atomic_functions.h', ['sm_32_atomic_functions.h', 'sm_32_atomic_functions.hpp']),
    ('sm_60_atomic_functions.h', ['sm_60_atomic_functions.h', 'sm_60_atomic_functions.hpp']),
    ('crt/sm_70_rt.h', ['crt/sm_70_rt.h', 'crt/sm_70_rt.hpp']),
    ('crt/sm_80_rt.h', ['crt/sm_80_rt.h', 'crt/sm_80_rt.hpp']),
    ('crt/sm_90_rt.h', ['crt/sm_90_rt.h', 'crt/sm_90_rt.hpp']),
]
FAMILIES = collections.OrderedDict([  # the groups the totals are reported for
    ('warp', ['sm_30_intrinsics.h', 'crt/sm_70_rt.h', 'crt/sm_80_rt.h']),
    ('integer, bit, SIMD, rounding', ['sm_20_intrinsics.h', 'sm_32_intrinsics.h',
                                      'sm_61_intrinsics.h', 'crt/device_functions.h']),
    ('atomics', ['device_atomic_functions.h', 'sm_20_atomic_functions.h',
                 'sm_32_atomic_functions.h', 'sm_60_atomic_functions.h']),
    ('fp16', ['cuda_fp16.h']),
    ('bf16', ['cuda_bf16.h']),
    ('sm_90 (clusters, 128-bit atomics)', ['crt/sm_90_rt.h']),
])
# Names that are the toolkit's implementation, not its API.
# (the extern "C" builtins __ullAtomicAnd, __usAtomicCAS, ... that the atomic functions are
# written with included).
INTERNAL = re.compile(r'^(__internal|__cuda|\w+_impl$|__float_simpl|__hsin_internal|'
                      r'__hcos_internal|__\w+Atomic\w*$|operator\s*__half2?_raw|'
                      r'operator\s*__nv_bfloat162?_raw)')

# Functions whose run stops the kernel, on a GPU as here: they run when they stop it.
EXPECTED_STOPS = {'__trap'}
# The warp votes without a mask: declared, but not valid on compute_70 and above, the only
# architectures there are to simulate (nvcc rejects them there too). Listed, not counted.
PRE_VOLTA = {'__ballot', '__any', '__all', 'ballot', 'any', 'all'}

TYPE_WORDS = {'int', 'char', 'short', 'long', 'unsigned', 'signed', 'float', 'double', 'bool',
              'void', 'const', 'volatile'}

Function = collections.namedtuple('Function', 'header ret name params text')


def strip_attributes(text):
    out, i = [], 0
    while True:
        j = text.find('__attribute__', i)
        if j < 0:
            out.append(text[i:])
            return ''.join(out)
        out.append(text[i:j])
        k = text.find('(', j)
        depth = 0
        for m in range(k, len(text)):
            depth += text[m] == '('
            depth -= text[m] == ')'
            if depth == 0:
                i = m + 1
                break
        else:
            return ''.join(out)


def split_params(params):
    parts, depth, cur = [], 0, ''
    for ch in params:
        depth += ch in '(<'
        depth -= ch in ')>'
        if ch == ',' and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    out = []
    for p in parts:
        p = ' '.join(p.split('=')[0].split())
        if p in ('void', ''):
            continue
        m = re.match(r'^(.*?[\s*&])([A-Za-z_]\w*)$', p)
        if m and m.group(2) not in TYPE_WORDS and m.group(1).strip() not in ('', 'const'):
            out.append((' '.join(m.group(1).split()), m.group(2)))
        else:
            out.append((p, ''))
    return out


def parse(statement):
    """(return type, name, [(type, name)]) of a free function declaration, or None."""
    s = strip_attributes(statement)
    s = re.sub(r'\b(static|extern|inline|__inline__|__forceinline__|"C")\b', ' ', s)
    s = re.sub(r'noexcept\s*\(\s*true\s*\)', ' ', s)
    s = ' '.join(s.split())
    m = re.match(r'^(.*?)\b(operator\s*(?:\(\)|[^\s(]+)|[A-Za-z_]\w*)\s*\((.*)\)\s*(const)?\s*$', s)
    if not m or not m.group(1).strip():
        return None  # constructors and conversion operators have no return type before the name
    ret, name = m.group(1).strip(), m.group(2).replace(' ', '')
    if ret.endswith('::') or 'template' in ret or name in ('sizeof', 'defined'):
        return None
    return ret, name, split_params(m.group(3))


def declarations(cuda, nvcc, work):
    source = os.path.join(work, 'all_headers.cu')
    with open(source, 'w') as f:
        f.write('#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n'
                '#include <sm_61_intrinsics.h>\n')
    pre = os.path.join(work, 'all_headers.ii')
    subprocess.run([nvcc, '-arch=sm_90', '-std=c++17', '-E', '--cuda', source, '-o', pre], check=True)
    files = {}
    for header, names in HEADERS:
        for n in names:
            files[n] = header
    seen, found = set(), []
    current, statement, statement_header, skip = None, '', None, 0
    depth_outer = 0
    with open(pre) as f:
        for line in f:
            m = re.match(r'^# \d+ "([^"]*)"', line)
            if m:
                path = m.group(1)
                current = next((h for n, h in files.items() if path.endswith('/include/' + n)), None)
                continue
            for ch in line:
                if skip:
                    skip += ch == '{'
                    skip -= ch == '}'
                    continue
                if ch == '{':
                    s = statement.strip()
                    if re.search(r'\)\s*(const\s*)?(noexcept\s*(\(\s*true\s*\))?\s*)?$', s):
                        if statement_header and '__attribute__((device))' in s:
                            found.append((statement_header, s))
                        skip = 1
                    elif re.search(r'\b(struct|class|union|enum)\b', s) or s.endswith('='):
                        skip = 1  # members (constructors, conversions) and initializers
                    statement, statement_header = '', None
                    continue
                if ch in ';}':
                    s = statement.strip()
                    if ch == ';' and statement_header and '__attribute__((device))' in s and '(' in s:
                        found.append((statement_header, s))
                    statement, statement_header = '', None
                    continue
                if not statement.strip() and not ch.isspace():
                    statement_header = current
                statement += ch
    functions = []
    for header, text in found:
        p = parse(text)
        if p is None:
            continue
        ret, name, params = p
        if INTERNAL.match(name):
            continue
        key = (name, tuple(t for t, _ in params))
        if key in seen:
            continue
        seen.add(key)
        functions.append(Function(header, ret, name, params, text))
    return functions


# ---- the generated kernel file

def base_type(t):
    t = re.sub(r'\b(const|volatile)\b', ' ', t).replace('&', ' ')
    return ' '.join(t.split())


# A conversion from the generic space into another takes a pointer into that space (any other
# pointer is meaningless to it, on a GPU as here): a local array, a __constant__ array.
SPACE_POINTERS = {
    '__cvta_generic_to_local': 'char %s[64] = {};',
    '__cvta_generic_to_constant': None,  # warpsim_coverage_constant, declared by PRELUDE
}


def argument(index, ptype, pname, function=''):
    """(declaration lines, expression) for one argument: masks are full, widths a warp, pointers
    point at a __shared__ array of the pointee type (or into the space a conversion from the
    generic space expects), other values are 1 or value-initialized."""
    t = base_type(ptype)
    var = 'a%d' % index
    if t.endswith('*') and function in SPACE_POINTERS:
        declaration = SPACE_POINTERS[function]
        if declaration is None:
            return [], 'warpsim_coverage_constant'
        return [declaration % var], var
    if t.endswith('*'):
        pointee = t[:-1].strip()
        if pointee == 'void':
            return ['alignas(16) static __shared__ char %s[64];' % var], var
        return ['alignas(16) static __shared__ %s %s[2];' % (pointee, var)], '&%s[0]' % var
    if pname in ('mask', 'membermask'):
        return [], '0xffffffffu'
    if function == '__barrier_sync_count' and pname == 'cnt':
        return [], '32u'  # the one warp the kernel runs: a thread count is a multiple of 32
    if pname == 'width':
        return [], 'warpSize'
    if re.fullmatch(r'(unsigned |signed )?(char|short|int|long|long long|short int|long int|'
                    r'long long int)|unsigned|float|double|bool|size_t', t):
        return [], 'static_cast<%s>(1)' % t
    return ['%s %s{};' % (t, var)], var


def call_expression(fn, args):
    op = re.match(r'^operator(.+)$', fn.name)
    if not op:
        return '%s(%s)' % (fn.name, ', '.join(args))
    sym = op.group(1)
    if sym in ('++', '--'):
        return '%s%s' % (sym, args[0]) if len(args) == 1 else '%s%s' % (args[0], sym)
    if len(args) == 1:
        return '%s(%s)' % (sym, args[0])
    return '(%s %s %s)' % (args[0], sym, args[1])


def case_code(index, fn):
    lines, args = [], []
    for k, (ptype, pname) in enumerate(fn.params):
        decl, expr = argument(k, ptype, pname, fn.name)
        lines += decl
        args.append(expr)
    call = call_expression(fn, args)
    ret = base_type(fn.ret)
    store = 'warpsim_coverage_store(out, %s);' % call if ret != 'void' else '%s; warpsim_coverage_store(out, 1);' % call
    body = ' '.join(lines + [store])
    return '    case %d: { %s break; }  // %s\n' % (index, body, fn.name)


PRELUDE = '''// Generated by scripts/shim_coverage.py: one call of each device function of the CUDA
// toolkit's headers, case k of the switch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <class T>
__device__ void warpsim_coverage_store(unsigned long long* out, const T& value) {
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof value < sizeof bits ? sizeof value : sizeof bits);
  out[threadIdx.x] = bits;
}

__constant__ char warpsim_coverage_constant[64];

__global__ void coverage(int which, unsigned long long* out) {
  switch (which) {
'''


def write_kernel(path, cases):
    lines = {}
    with open(path, 'w') as f:
        f.write(PRELUDE)
        line = PRELUDE.count('\n') + 1
        for index, fn in cases:
            f.write(case_code(index, fn))
            lines[line] = index
            line += 1
        f.write('    default: break;\n  }\n}\n')
    return lines


def warpsim_run(warpsim, kernel_file, which, env, timeout=120):
    argv = [warpsim, 'run', kernel_file, '--kernel', 'coverage', '--grid', '1', '--block', '32',
            '--arg', 'i32:%d' % which, '--arg', 'u64[32]:zeros', '--json', '--timeout', '20']
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)


def first_error(output, kernel_file, line):
    for text in output.splitlines():
        m = re.search(r'error: (.*)$', text)
        if m:
            return m.group(1).strip()
    return 'does not compile'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser.add_argument('--warpsim', default=os.path.join(root, 'build', 'cli', 'warpsim'))
    parser.add_argument('--cuda', default=os.environ.get('CUDA_HOME', '/usr/local/cuda'))
    parser.add_argument('--out', default=os.path.join(root, 'tests', 'shim', 'coverage.md'))
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--keep', help='keep the generated kernel file here')
    options = parser.parse_args()
    nvcc = os.path.join(options.cuda, 'bin', 'nvcc')
    if not os.access(nvcc, os.X_OK):
        sys.exit('shim_coverage: needs the CUDA toolkit\'s nvcc (--cuda DIR or $CUDA_HOME): %s' % nvcc)
    if not os.access(options.warpsim, os.X_OK):
        sys.exit('shim_coverage: no built warpsim at %s (--warpsim)' % options.warpsim)

    work = tempfile.mkdtemp(prefix='warpsim-coverage-')
    env = dict(os.environ, WARPSIM_CACHE_DIR=os.path.join(work, 'cache'))
    functions = declarations(options.cuda, nvcc, work)
    print('shim_coverage: %d device functions in %d headers' % (len(functions), len(HEADERS)))

    kernel_file = options.keep or os.path.join(work, 'coverage.cu')
    compiles = {}  # index -> None (compiles) or the first error
    active = list(enumerate(functions))
    for attempt in range(60):
        lines = write_kernel(kernel_file, active)
        run = warpsim_run(options.warpsim, kernel_file, -1, env, timeout=1800)
        if run.returncode == 0:
            break
        output = run.stderr
        failing = set()
        for m in re.finditer(re.escape(os.path.abspath(kernel_file)) + r':(\d+):', output):
            if int(m.group(1)) in lines:
                failing.add(lines[int(m.group(1))])
        if not failing:
            sys.exit('shim_coverage: the kernel file does not compile, and no case is named:\n' +
                     output[-4000:])
        messages = collections.defaultdict(list)
        current = None
        for text in output.splitlines():
            m = re.search(re.escape(os.path.abspath(kernel_file)) + r':(\d+):', text)
            if m and int(m.group(1)) in lines:
                current = lines[int(m.group(1))]
            e = re.search(r'error: (.*)$', text)
            if e and current is not None:
                messages[current].append(e.group(1).strip())
        for index in failing:
            errs = messages.get(index) or ['does not compile']
            compiles[index] = next((e for e in errs if 'not simulated' in e or 'needs sm_' in e), errs[0])
        active = [(i, fn) for i, fn in active if i not in failing]
        print('shim_coverage: compile %d: %d calls do not compile' % (attempt + 1, len(failing)))
    for index, _ in active:
        compiles.setdefault(index, None)

    runs = {}

    def run_case(index):
        result = warpsim_run(options.warpsim, kernel_file, index, env)
        if result.returncode == 0:
            return index, None
        if functions[index].name in EXPECTED_STOPS and result.returncode == 1:
            return index, None
        message = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else 'exit %d' % result.returncode
        return index, message

    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for index, message in pool.map(run_case, [i for i, _ in active]):
            runs[index] = message

    write_table(options.out, functions, compiles, runs)
    print_totals(functions, compiles, runs)


def totals(functions, compiles, runs, headers):
    chosen = [i for i, fn in enumerate(functions) if fn.header in headers and fn.name not in PRE_VOLTA]
    compiled = sum(1 for i in chosen if compiles.get(i) is None)
    ran = sum(1 for i in chosen if compiles.get(i) is None and runs.get(i) is None)
    return len(chosen), compiled, ran


def signature(fn):
    return '%s %s(%s)' % (fn.ret, fn.name, ', '.join(t for t, _ in fn.params))


def write_table(path, functions, compiles, runs):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write('# Shim coverage of the CUDA toolkit\'s device functions\n\n')
        f.write('Written by `scripts/shim_coverage.py`: every `__device__` function (and operator) '
                'that an sm_90 device pass of CUDA 13.0\'s headers declares in the headers below, '
                'called once from a generated kernel file, compiled and run (one warp) through '
                '`warpsim run`. A function that does not compile is one the shim declares as not '
                'simulated (the note gives the compiler\'s message) or lacks. The totals leave out '
                'the warp votes without a mask (`__ballot`, `__any`, `__all`, `ballot`, `any`, '
                '`all`): declared, but not valid on compute_70 and above, where nvcc rejects them '
                'too.\n\n')
        f.write('| family | functions | compile | run |\n|---|---:|---:|---:|\n')
        for family, headers in FAMILIES.items():
            n, c, r = totals(functions, compiles, runs, headers)
            f.write('| %s | %d | %d (%.1f%%) | %d (%.1f%%) |\n' % (family, n, c, 100.0 * c / max(n, 1), r, 100.0 * r / max(n, 1)))
        n, c, r = totals(functions, compiles, runs, [h for h, _ in HEADERS])
        f.write('| **all** | %d | %d (%.1f%%) | %d (%.1f%%) |\n\n' % (n, c, 100.0 * c / n, r, 100.0 * r / n))
        for header, _ in HEADERS:
            chosen = [(i, fn) for i, fn in enumerate(functions) if fn.header == header]
            n, c, r = totals(functions, compiles, runs, [header])
            f.write('## %s\n\n%d functions, %d compile, %d run.\n\n' % (header, n, c, r))
            f.write('| function | compiles | runs | note |\n|---|---|---|---|\n')
            for i, fn in chosen:
                error = compiles.get(i)
                ran = 'yes' if error is None and runs.get(i) is None else ('no' if error is None else '-')
                if fn.name in PRE_VOLTA:
                    ran = 'n/a'
                note = error or runs.get(i) or ''
                note = re.sub(r'\S*coverage\.cu:\d+: ', '', note)  # no temporary paths in the table
                if fn.name in EXPECTED_STOPS:
                    note = 'stops the kernel, as on a GPU'
                note = note.replace('|', '\\|')[:160]
                f.write('| `%s` | %s | %s | %s |\n' % (signature(fn).replace('|', '\\|'), 'yes' if error is None else 'no', ran, note))
            f.write('\n')


def print_totals(functions, compiles, runs):
    for family, headers in FAMILIES.items():
        n, c, r = totals(functions, compiles, runs, headers)
        print('  %-36s %4d functions, %4d compile (%5.1f%%), %4d run (%5.1f%%)' % (family, n, c, 100.0 * c / max(n, 1), r, 100.0 * r / max(n, 1)))
    n, c, r = totals(functions, compiles, runs, [h for h, _ in HEADERS])
    print('  %-36s %4d functions, %4d compile (%5.1f%%), %4d run (%5.1f%%)' % ('all', n, c, 100.0 * c / n, r, 100.0 * r / n))


if __name__ == '__main__':
    main()
