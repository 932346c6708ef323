"""Reading and writing manifests: positions for findings, Lists flattened, comment-keeping round trips."""

from wasplan.documents.model import Document, SourceFile
from wasplan.documents.reader import ReadResult, read_bytes, read_paths, read_text

__all__ = ["Document", "SourceFile", "ReadResult", "read_bytes", "read_paths", "read_text"]
