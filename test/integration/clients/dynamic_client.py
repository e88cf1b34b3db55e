"""Drives the dynamic client (discovery-backed, any group) through create, get, merge patch and
list for each object given. Usage: KUBECONFIG NAMESPACE OBJECT_JSON..."""
import json
import os
import sys

from kubernetes import config, dynamic

kubeconfig, namespace = sys.argv[1:3]
objects = [json.loads(a) for a in sys.argv[3:]]
# The discovery cache goes beside the kubeconfig: a fresh server must never be described by another's.
cache = os.path.join(os.path.dirname(kubeconfig), "python-discovery.json")
dyn = dynamic.DynamicClient(config.new_client_from_config(config_file=kubeconfig), cache_file=cache)
report = []
for obj in objects:
    resource = dyn.resources.get(api_version=obj["apiVersion"], kind=obj["kind"])
    name = obj["metadata"]["name"]
    ns = namespace if resource.namespaced else None
    created = dyn.create(resource, body=obj, namespace=ns)
    got = resource.get(name=name, namespace=ns)
    patched = resource.patch(body={"metadata": {"labels": {"patched": "yes"}}}, name=name, namespace=ns,
                             content_type="application/merge-patch+json")
    listed = resource.get(namespace=ns)
    report.append({
        "kind": obj["kind"],
        "resource": resource.name,
        "namespaced": resource.namespaced,
        "created": created.to_dict(),
        "got": got.to_dict(),
        "patched": patched.to_dict(),
        "listKind": listed.kind,
        "listed": [i.metadata.name for i in listed.items],
    })
print(json.dumps(report))
