"""Runs a command in a pod through pods/exec with the official client's WebSocket stream,
then prints what came back as a JSON report. Args: kubeconfig namespace pod container command..."""
import json
import sys

from kubernetes import client, config
from kubernetes.stream import stream

config.load_kube_config(config_file=sys.argv[1])
namespace, pod, container = sys.argv[2], sys.argv[3], sys.argv[4]
api = client.CoreV1Api()
out = stream(api.connect_get_namespaced_pod_exec, pod, namespace, container=container,
             command=sys.argv[5:], stdout=True, stderr=True, stdin=False, tty=False)
print(json.dumps({"output": out}))
