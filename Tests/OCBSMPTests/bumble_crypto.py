"""Computes the SMP functions with Bumble's bumble.crypto for SMPCryptoDifferentialTests: one JSON case per stdin line
(hex, most significant octet first, as OCBSMP takes them), one JSON answer per line. Bumble's functions take their
inputs least significant octet first (as the PDUs carry them), so each value is reversed in and out."""
import json
import sys

from bumble.crypto import ah, aes_cmac, c1, f4, f5, f6, g2, s1


def le(text):
    return bytes.fromhex(text)[::-1]


def be(value):
    return value[::-1].hex()


for line in sys.stdin:
    case = json.loads(line)
    out = {
        'f4': be(f4(le(case['u']), le(case['v']), le(case['x']), bytes([case['z']]))),
        'f5': [be(part) for part in f5(le(case['w']), le(case['n1']), le(case['n2']), le(case['a1']), le(case['a2']))],
        'f6': be(f6(le(case['k']), le(case['n1']), le(case['n2']), le(case['r']), le(case['io']), le(case['a1']), le(case['a2']))),
        'g2': g2(le(case['u']), le(case['v']), le(case['x']), le(case['y'])),
        'ah': be(ah(le(case['k']), le(case['r3']))),
        'c1': be(c1(le(case['k']), le(case['r']), le(case['preq']), le(case['pres']), case['iat'], case['rat'],
                    le(case['ia']), le(case['ra']))),
        's1': be(s1(le(case['k']), le(case['r']), le(case['x']))),
        'cmac': aes_cmac(bytes.fromhex(case['m']), bytes.fromhex(case['k'])).hex(),
    }
    print(json.dumps(out), flush=True)
