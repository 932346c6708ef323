module wasplan.local/oracle/core

go 1.26.0
