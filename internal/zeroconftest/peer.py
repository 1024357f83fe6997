#!/usr/bin/env python3
"""The independent OSCQuery peer of gloved's tests.

python-zeroconf (Debian's python3-zeroconf) browses for or advertises
DNS-SD services; urllib reads an OSCQuery server's HOST_INFO and tree;
jsonschema (python3-jsonschema) checks them against the OSCQuery JSON
shape. Events are printed as JSON lines on standard output.

  peer.py browse TYPE [--http] [--schema FILE]
      report services of TYPE as they are added, updated and removed; with
      --http, read each one's HOST_INFO and tree and check them.
  peer.py advertise TYPE NAME PORT ADDRESS
      advertise NAME; read lines on standard input: "port N" moves it,
      "quit" withdraws it (goodbye packets) and exits.
"""
import argparse
import json
import socket
import sys
import urllib.error
import urllib.request

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf


def say(obj):
    print(json.dumps(obj), flush=True)


def fetch(url):
    """GET url: its status and body, parsed as JSON when it is."""
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            body = r.read().decode()
            return {"status": r.status, "type": r.headers.get("Content-Type"), "json": json.loads(body) if body else None}
    except urllib.error.HTTPError as e:
        return {"status": e.code, "type": None, "json": None}


class Listener(ServiceListener):
    def __init__(self, args, validators):
        self.args, self.validators = args, validators

    def add_service(self, zc, type_, name):
        self.report(zc, "added", type_, name)

    def update_service(self, zc, type_, name):
        self.report(zc, "updated", type_, name)

    def remove_service(self, zc, type_, name):
        say({"event": "removed", "type": type_, "name": name})

    def report(self, zc, event, type_, name):
        info = zc.get_service_info(type_, name, timeout=3000)
        d = {"event": event, "type": type_, "name": name}
        if info is None:
            d["unresolved"] = True
            say(d)
            return
        d.update(server=info.server, port=info.port, addresses=info.parsed_addresses(),
                 properties={k.decode(): (v.decode() if v is not None else None) for k, v in info.properties.items()})
        if self.args.http and d["addresses"]:
            base = "http://%s:%d" % (d["addresses"][0], info.port)
            hi, tree = fetch(base + "/?HOST_INFO"), fetch(base + "/")
            d["host_info"], d["tree"] = hi["json"], tree["json"]
            d["http"] = {"host_info": hi["status"], "tree": tree["status"], "tree_type": tree["type"]}
            errors = []
            for what, doc, v in (("host_info", hi["json"], self.validators.get("host_info")), ("tree", tree["json"], self.validators.get("node"))):
                if v is not None:
                    errors += ["%s %s: %s" % (what, "/".join(str(p) for p in e.absolute_path), e.message) for e in v.iter_errors(doc)]
            d["schema_errors"] = errors
        say(d)


def validators(path):
    if not path:
        return {}
    from jsonschema import Draft202012Validator
    with open(path) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    out = {}
    for part in ("node", "host_info"):
        out[part] = Draft202012Validator({"$ref": "#/$defs/" + part, "$defs": schema["$defs"]})
    return out


def browse(args):
    zc = Zeroconf(ip_version=IPVersion.V4Only)
    ServiceBrowser(zc, args.type, Listener(args, validators(args.schema)))
    say({"event": "browsing", "type": args.type})
    try:
        for line in sys.stdin:
            if line.strip() == "quit":
                break
    finally:
        zc.close()


def advertise(args):
    zc = Zeroconf(ip_version=IPVersion.V4Only)
    label = args.type.split(".")[0].lstrip("_")
    info = ServiceInfo(args.type, "%s.%s" % (args.name, args.type), addresses=[socket.inet_aton(args.address)],
                       port=args.port, properties={"txtvers": "1"}, server="%s.%s.local." % (args.name, label))
    zc.register_service(info)
    say({"event": "registered", "name": info.name})
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["port"]:
            info.port = int(words[1])
            zc.update_service(info)
            say({"event": "moved", "port": info.port})
        elif words[:1] == ["quit"]:
            break
    zc.unregister_service(info)
    zc.close()
    say({"event": "unregistered"})


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("browse")
    b.add_argument("type")
    b.add_argument("--http", action="store_true")
    b.add_argument("--schema")
    a = sub.add_parser("advertise")
    a.add_argument("type")
    a.add_argument("name")
    a.add_argument("port", type=int)
    a.add_argument("address")
    args = p.parse_args()
    {"browse": browse, "advertise": advertise}[args.cmd](args)


if __name__ == "__main__":
    main()
