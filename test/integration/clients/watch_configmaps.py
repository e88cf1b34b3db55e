"""Watches ConfigMaps with the official client's Watch helper while another thread creates one
and keeps changing it; reports the events seen for it. Usage: KUBECONFIG NAMESPACE NAME."""
import json
import sys
import threading
import time

from kubernetes import client, config, watch

kubeconfig, namespace, name = sys.argv[1:4]
api = client.CoreV1Api(config.new_client_from_config(config_file=kubeconfig))
seen = []
modified_seen = threading.Event()
writer_error = []


def writer():
    # The watch may start after the create lands (then the object arrives as ADDED with the state
    # it had then), so keep changing it until a MODIFIED has been seen.
    try:
        api.create_namespaced_config_map(namespace, {"metadata": {"name": name}, "data": {"n": "0"}})
        n = 0
        deadline = time.time() + 20
        while not modified_seen.is_set() and time.time() < deadline:
            time.sleep(0.3)
            n += 1
            api.patch_namespaced_config_map(name, namespace, {"data": {"n": str(n)}})
    except Exception as e:  # reported, and the watch below times out
        writer_error.append(repr(e))


w = watch.Watch()
threading.Thread(target=writer, daemon=True).start()
for event in w.stream(api.list_namespaced_config_map, namespace, timeout_seconds=20):
    obj = event["object"]
    seen.append({"type": event["type"], "name": obj.metadata.name, "data": obj.data, "resourceVersion": obj.metadata.resource_version})
    if obj.metadata.name == name and event["type"] == "MODIFIED":
        modified_seen.set()
        w.stop()
print(json.dumps({"events": seen, "writerError": writer_error}))
