#!/usr/bin/env python3
"""Make the seed corpora of tests/fuzz/corpus/ from the project's own
tests and data (docs/devel/fuzzing.md).  Run from anywhere:

    python3 tests/fuzz/make-corpus.py BUILD-DIR

BUILD-DIR holds a normal build (its gemu-dis lists the .gxp files).
Every seed is made again; the seeds are small (a few hundred KiB in all).
"""
import os
import re
import shutil
import struct
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(SRC, 'tests', 'fuzz', 'corpus')
VARIANTS = ['g80', 'g84', 'g200', 'mcp77', 'gt215']
MODES = ['vp', 'gp', 'fp', 'cp']
CHUNK = 40


def sel(var, mode):
    return bytes([VARIANTS.index(var) + len(VARIANTS) * MODES.index(mode)])


def put(surface, name, data):
    d = os.path.join(OUT, surface)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def copy(surface, path, name=None):
    put(surface, name or os.path.basename(path), open(path, 'rb').read())


def catalogue():
    rows = {}
    path = os.path.join(SRC, 'tests/data/envytools/tesla-asm-catalogue.tsv')
    for line in open(path).read().splitlines()[1:]:
        f = line.split('\t')
        rows.setdefault(f[1], []).append((f[2], f[3]))
    for mode, insns in rows.items():
        for i in range(0, len(insns), CHUNK):
            part = insns[i:i + CHUNK]
            src = ''.join(s + '\n' for s, _ in part)
            put('tesla-as', 'cat-%s-%03d.s' % (mode, i // CHUNK),
                sel('g84', mode) + src.encode())
            words = [int(w, 16) for _, h in part for w in h.split()]
            put('tesla-dis', 'cat-%s-%03d.bin' % (mode, i // CHUNK),
                sel('g84', mode) + struct.pack('<%dI' % len(words), *words))


def shader_files():
    d = os.path.join(SRC, 'tests/tools/shader')
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        if n.endswith(('.state', '.s', '.hex')):
            copy('shader', p)
        if n.endswith('.s'):
            put('tesla-as', n, sel('g84', 'cp') + open(p, 'rb').read())
        if n.endswith('.hex'):
            text = re.sub(r'[#;].*', '', open(p).read())
            words = [int(w, 16) for w in text.split()]
            put('tesla-dis', n, sel('g84', 'cp') +
                struct.pack('<%dI' % len(words), *words))
    for n in sorted(os.listdir(os.path.join(d, 'bad'))):
        if n.endswith(('.state', '.s')):
            copy('shader', os.path.join(d, 'bad', n), 'bad-' + n)
    # USSE: three real-hardware cases, their files beside them
    hw = os.path.join(SRC, 'tests/data/usse-hw')
    for case in sorted(os.listdir(hw))[:3]:
        cd = os.path.join(hw, case)
        if not os.path.isdir(cd):
            continue
        state = open(os.path.join(cd, 'case.state')).read()
        state = state.replace('program.lst', case + '.lst')
        state = state.replace('case.txt', case + '.txt')
        put('shader', case + '.state', state)
        copy('shader', os.path.join(cd, 'program.lst'), case + '.lst')
        copy('shader', os.path.join(cd, 'case.txt'), case + '.txt')
        copy('usse-as', os.path.join(cd, 'program.lst'), case + '.lst')


def is_compute(text):
    """A Tesla compute state file: no stage line, or stage compute."""
    lines = [ln.split('#')[0].split() for ln in text.splitlines()]
    stages = [ln[1] for ln in lines if len(ln) > 1 and ln[0] == 'stage']
    usse = any(ln[:2] == ['chip', 'sgx543'] for ln in lines)
    return not usse and all(st in ('compute', 'cp') for st in stages)


def shader_device():
    """gemu-shader --device: the compute state files and their code (the
    .hex programs as the .bin files they name)."""
    for d in ('tests/tools/shader', 'tests/tools/shader-device'):
        d = os.path.join(SRC, d)
        for n in sorted(os.listdir(d)):
            p = os.path.join(d, n)
            if n.endswith('.state') and is_compute(open(p).read()):
                copy('shader-device', p)
            elif n.endswith('.s'):
                copy('shader-device', p)
            elif n.endswith('.hex'):
                text = re.sub(r'[#;].*', '', open(p).read())
                words = [int(w, 16) for w in text.split()]
                put('shader-device', n[:-4] + '.bin',
                    struct.pack('<%dI' % len(words), *words))


def recordings():
    """Replay files: tests/recordings' (gemu -record of a guest, and
    g84-channel.rec, a small driver's channel from the nv50_rec_channel
    suite: `make recordings`), a copy cut in the middle of a record, one
    damaged after its first CHECK, and its first 300 records alone (a
    run that stopped early)."""
    d = os.path.join(SRC, 'tests/recordings')
    for n in sorted(os.listdir(d)):
        if not n.endswith('.rec'):
            continue
        data = open(os.path.join(d, n), 'rb').read()
        put('gemu-rec', n, data)
        put('gemu-rec', n[:-4] + '-cut.rec', data[:len(data) // 2 + 3])
        bad = bytearray(data)
        bad[-100] ^= 0x10
        put('gemu-rec', n[:-4] + '-damaged.rec', bytes(bad))
        pos = 64
        for _ in range(300):
            plen, shift, q = 0, 0, pos + 1
            while data[q] & 0x80:
                plen |= (data[q] & 0x7f) << shift
                shift += 7
                q += 1
            plen |= data[q] << shift
            pos = q + 1 + plen
        put('gemu-rec', n[:-4] + '-300.rec', data[:pos])


def usse(build):
    d = os.path.join(SRC, 'tests/data/sdl2-vitagxm')
    dis = os.path.join(build, 'gemu-dis')
    for n in sorted(os.listdir(d)):
        if not n.endswith('.gxp'):
            continue
        p = os.path.join(d, n)
        copy('gxp', p)
        copy('sgx-scene', p)
        lst = subprocess.run([dis, '-m', 'usse', p], check=True,
                             capture_output=True, text=True).stdout
        put('usse-as', n[:-4] + '.lst', lst)
        words = [int(m.group(1), 16) for m in
                 re.finditer(r'^\s*[0-9a-f]+: ([0-9a-f]{16})', lst, re.M)]
        put('usse-dis', n[:-4] + '.bin',
            struct.pack('<%dQ' % len(words), *words))
    sd = os.path.join(SRC, 'tests/scenes')
    for n in sorted(os.listdir(sd)):
        text = open(os.path.join(sd, n)).read()
        # the .gxp files lie beside the seeds
        text = text.replace('../data/sdl2-vitagxm/', '')
        put('sgx-scene', n, text)
        for i, m in enumerate(re.finditer(r'^usse [^\n]*\n(.*?)^end$', text,
                                          re.M | re.S)):
            put('usse-as', '%s-%d.s' % (n[:-6], i), m.group(1))


def mpqemu():
    def hdr(cmd, size):
        return struct.pack('<iIQ', cmd, 0, size)

    def send(b, nfds=0):
        return bytes([len(b), nfds]) + b

    conf = lambda c, a, v, n: hdr(c, 12) + struct.pack('<IIi', a, v, n)
    bar = lambda c, a, v, s: hdr(c, 24) + struct.pack('<QQIB3x', a, v, s, 1)
    s = b''
    s += send(conf(3, 0, 0, 4))                        # read the IDs
    s += send(conf(2, 0x10, 0xfd000000, 4))            # place BAR0
    s += send(conf(2, 4, 6, 2))                        # memory + master
    s += send(bar(5, 0xfd000000, 0, 4))                # PMC_BOOT_0
    s += send(bar(4, 0xfd000140, 1, 4))
    s += send(hdr(7, 0))                               # reset
    put('mpqemu', 'probe', s)
    sysmem = struct.pack('<8Q8Q8q', 0x10000000, 0, 0, 0, 0, 0, 0, 0,
                         0x10000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    m = hdr(0, 192) + sysmem
    put('mpqemu', 'sysmem', send(m[:200], 1) + send(m[200:]) +
        send(hdr(6, 0), 2) + send(conf(3, 0x3c, 0, 1)))


def qmp():
    g = (b'{"QMP": {"version": {"qemu": {"micro": 0, "minor": 2, '
         b'"major": 7}}, "capabilities": ["oob"]}}\r\n')
    put('qmp', 'greeting', g + b'\xff{"return": {}}\r\n\xff'
        b'{"return": {}}\r\n{"error": {"class": "GenericError", '
        b'"desc": "x"}}\r\n\xff{"event": "STOP", "timestamp": '
        b'{"seconds": 1, "microseconds": 2}}\r\n')


def nv50():
    w = lambda reg, v: bytes([0]) + struct.pack('<I', reg)[:3] + \
        struct.pack('<I', v)
    r = lambda reg: bytes([1]) + struct.pack('<I', reg)[:3]
    s = r(0) + r(0x101000) + w(0x200, 0xffffffff) + r(0x9400) + \
        bytes([6, 20]) + r(0x610020)
    # EVO core channel: a few methods (UPDATE 0x080), then a vblank
    evo = [0x00040088, 0xf0000000, 0x00040080, 0, 0x00040084, 0x80000000]
    s += bytes([5, len(evo)]) + struct.pack('<%dI' % len(evo), *evo)
    s += bytes([6, 50, 1]) + struct.pack('<I', 0x610024)[:3]
    put('nv50-mmio', 'probe', s)
    # PFIFO: M2MF on subchannel 0, 2D on 1: a few methods each
    m = lambda subc, mthd, *d: struct.pack(
        '<%dI' % (1 + len(d)), len(d) << 18 | subc << 13 | mthd, *d)
    e1 = m(0, 0x180, 0xd0000002, 0xd0000002, 0xd0000002) + \
        m(0, 0x200, 1) + m(0, 0x21c, 1) + m(0, 0x238, 0, 0) + \
        m(0, 0x30c, 0x1000, 0x2000, 0x100, 0x100, 0x40, 1) + m(0, 0x328, 0x101)
    e2 = m(1, 0x180, 0xd0000002) + m(1, 0x200, 0xcf, 1) + \
        m(1, 0x580, 4) + m(1, 0x588, 0, 0, 16, 16) + m(0, 0x104, 0)
    put('nv50-pfifo', 'm2mf-2d', bytes([len(e1) // 4]) + e1 +
        bytes([len(e2) // 4]) + e2 + bytes([0]))


def put_dict(name, words):
    """tests/fuzz/NAME.dict: libFuzzer's dictionary, one "word" a line."""
    words = sorted(w for w in set(words) if 1 < len(w) <= 32 and
                   all(32 <= ord(c) < 127 and c not in '"\\' for c in w))
    with open(os.path.join(SRC, 'tests', 'fuzz', name + '.dict'), 'w') as f:
        f.write('# made by tests/fuzz/make-corpus.py\n')
        f.writelines('"%s"\n' % w for w in words)


def tokens(text, pattern=r'[^\s,;#()\[\]{}]+'):
    return re.findall(pattern, text)


def seeds(surface):
    d = os.path.join(OUT, surface)
    for n in sorted(os.listdir(d)):
        yield open(os.path.join(d, n), 'rb').read().decode('latin-1')


def dicts():
    put_dict('tesla-as', [t for x in seeds('tesla-as') for t in tokens(x[1:])
                          if not re.match(r'^-?(0x)?[0-9a-f]+$', t)])
    usse_words = []
    for x in seeds('usse-as'):
        for line in x.splitlines():
            line = re.sub(r'^\s*[0-9a-f]+: [0-9a-f]{16}', '', line)
            for t in tokens(line):
                usse_words += [t] + t.split('.')
    put_dict('usse-as', usse_words)
    code = lambda *ps: ''.join(open(os.path.join(SRC, p)).read() for p in ps)
    lits = r'"([a-z][a-z0-9_-]*)"'
    shader_words = re.findall(lits, code('tools/gemu-shader/state.c',
                                         'tools/gemu-shader/usse.c'))
    put_dict('shader', shader_words + ['chip sgx543', 'chip g84',
                                       'stage compute', 'code ', 'dump '])
    put_dict('shader-device', shader_words + ['chip g84', 'stage compute',
                                              'code ', 'dump g0[', 'grid ',
                                              'block '])
    put_dict('sgx-scene', re.findall(lits, code('block/sgx-scene.c')) +
             re.findall(r'"([A-Z][A-Z0-9_]*)"', code('block/sgx-scene.c')) +
             [t for x in seeds('sgx-scene') for t in
              re.findall(r'\b[A-Z][A-Z0-9_]+\b', x)] + ['sgx-scene 1'])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for n in os.listdir(OUT):       # the folders; README.md stays
        if os.path.isdir(os.path.join(OUT, n)):
            shutil.rmtree(os.path.join(OUT, n))
    catalogue()
    shader_files()
    shader_device()
    recordings()
    usse(sys.argv[1])
    mpqemu()
    qmp()
    nv50()
    dicts()


if __name__ == '__main__':
    main()
