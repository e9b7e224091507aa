# python-pickle: records with 4-64 KiB payloads pickled into a BytesIO and loaded back.
import hashlib
import io
import pickle
import random

r = random.Random(7)
recs = [{"id": i, "name": "rec%d" % i,
         "payload": r.randbytes(r.choice([4096, 8192, 16384, 32768, 65536]) - r.randint(0, 64)),
         "tags": [r.randint(0, 1000) for _ in range(8)]} for i in range(2000)]
h = hashlib.sha256()
for rnd in range(12):
    buf = io.BytesIO()
    for rec in recs:
        pickle.dump(rec, buf, protocol=5)
    data = buf.getvalue()
    buf = io.BytesIO(data)
    out = []
    while buf.tell() < len(data):
        out.append(pickle.load(buf))
    h.update(len(data).to_bytes(8, "little"))
    h.update(out[rnd]["payload"])
print(h.hexdigest())
