"""Creates a ConfigMap, reads it back, changes it and replaces it with the object as read (the
read-modify-write every controller does). Usage: KUBECONFIG NAMESPACE NAME."""
import json
import sys

from kubernetes import client, config

kubeconfig, namespace, name = sys.argv[1:4]
api_client = config.new_client_from_config(config_file=kubeconfig)
api = client.CoreV1Api(api_client)
created = api.create_namespaced_config_map(namespace, client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data={"a": "1"}))
current = api.read_namespaced_config_map(name, namespace)
current.data["b"] = "2"
replaced = api.replace_namespaced_config_map(name, namespace, current)
again = api.read_namespaced_config_map(name, namespace)
print(json.dumps({
    "created": api_client.sanitize_for_serialization(created),
    "replaced": api_client.sanitize_for_serialization(replaced),
    "read": api_client.sanitize_for_serialization(again),
}))
