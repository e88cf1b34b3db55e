"""Drives a custom resource through CustomObjectsApi: create, get, list with a label selector,
merge patch, patch of the status and scale sub-resources, replace, a refused object, and
delete. Usage: KUBECONFIG GROUP VERSION NAMESPACE PLURAL."""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

kubeconfig, group, version, namespace, plural = sys.argv[1:6]
api_client = config.new_client_from_config(config_file=kubeconfig)
api = client.CustomObjectsApi(api_client)
body = {"apiVersion": f"{group}/{version}", "kind": "Widget", "metadata": {"name": "py", "labels": {"by": "python"}}, "spec": {"color": "red"}}
created = api.create_namespaced_custom_object(group, version, namespace, plural, body)
got = api.get_namespaced_custom_object(group, version, namespace, plural, "py")
listed = api.list_namespaced_custom_object(group, version, namespace, plural, label_selector="by=python")
patched = api.patch_namespaced_custom_object(group, version, namespace, plural, "py", {"spec": {"color": "green"}})
status = api.patch_namespaced_custom_object_status(group, version, namespace, plural, "py", {"status": {"replicas": 1, "selector": "by=python"}})
scale = api.patch_namespaced_custom_object_scale(group, version, namespace, plural, "py", {"spec": {"replicas": 2}})
current = api.get_namespaced_custom_object(group, version, namespace, plural, "py")
current["spec"]["size"] = "5m"
replaced = api.replace_namespaced_custom_object(group, version, namespace, plural, "py", current)
refused = None
try:
    api.create_namespaced_custom_object(group, version, namespace, plural, {**body, "metadata": {"name": "bad"}, "spec": {"color": "pink"}})
except ApiException as e:
    refused = {"status": e.status, "body": json.loads(e.body)}
deleted = api.delete_namespaced_custom_object(group, version, namespace, plural, "py")
print(json.dumps({
    "created": created, "got": got, "listed": [i["metadata"]["name"] for i in listed["items"]], "patched": patched,
    "status": status, "scale": scale, "replaced": replaced, "refused": refused, "deleted": deleted,
}))
