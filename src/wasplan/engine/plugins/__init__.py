"""One module per kube-scheduler plugin; plugins never import each other, the pod cycle composes them."""
