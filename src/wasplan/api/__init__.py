"""What the Kubernetes APIs are: releases, served versions, feature gates, the version-free hub model."""
