"""`wasplan migrate`: rewrite scheduling.k8s.io manifests between v1alpha1/v1alpha2/v1alpha3/v1beta1 and adapt
batch/v1 Jobs, as edits on the comment-keeping round-trip tree of only the documents that change."""
