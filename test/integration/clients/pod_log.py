"""Reads a container's log with read_namespaced_pod_log, once per JSON document of keyword options
given, and prints what each read returned (or the refusal's HTTP status and message) as a JSON
report. Usage: KUBECONFIG NAMESPACE POD OPTIONS_JSON..."""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

kubeconfig, namespace, pod = sys.argv[1:4]
api = client.CoreV1Api(config.new_client_from_config(config_file=kubeconfig))
reads = []
for options in sys.argv[4:]:
    try:
        reads.append({"log": api.read_namespaced_pod_log(pod, namespace, **json.loads(options))})
    except ApiException as e:
        reads.append({"status": e.status, "message": json.loads(e.body).get("message")})
print(json.dumps(reads))
