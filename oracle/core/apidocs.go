package core

// apidocs.go: the documents `validate`, `convert` and `expand` read, kept as the bytes the API server would
// receive, one per object, with the file and the document index wasplan reports for them.
//
// A YAML stream is split at its `---` separators (k8s.io/apimachinery/pkg/util/yaml's reader, the one kubectl
// uses); a JSON file is one document. A List (`kind: List` or `<Kind>List`) is a client-side envelope: kubectl
// sends each item as its own request, so each item becomes its own document with the List's document index.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

// apiDocument is one object as a client would send it.
type apiDocument struct {
	File  string
	Index int // the document's position in its file, from 0
	Item  int // the item's position in a List envelope, -1 outside one
	Data  []byte
	Head  docHead
}

// docHead is what a report names a document by, read leniently so that a document too broken to decode is
// still named.
type docHead struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name         string `json:"name"`
		GenerateName string `json:"generateName"`
		Namespace    string `json:"namespace"`
	} `json:"metadata"`
}

// readAPIDocuments reads every document of every path.
func readAPIDocuments(paths []string) ([]apiDocument, error) {
	files, err := ExpandPaths(paths)
	if err != nil {
		return nil, err
	}
	var docs []apiDocument
	for _, file := range files {
		var data []byte
		if file == "-" {
			data, err = io.ReadAll(os.Stdin)
		} else {
			data, err = os.ReadFile(file)
		}
		if err != nil {
			return nil, err
		}
		split, err := splitDocuments(file, data)
		if err != nil {
			return nil, err
		}
		docs = append(docs, split...)
	}
	return docs, nil
}

func splitDocuments(file string, data []byte) ([]apiDocument, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs []apiDocument
	for index := 0; ; {
		chunk, err := reader.Read()
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if isBlankDocument(chunk) {
			continue
		}
		docs = append(docs, unwrapList(file, index, chunk)...)
		index++
	}
}

// isBlankDocument: a document of only comments and blank lines is not a document (kubectl skips it too).
func isBlankDocument(chunk []byte) bool {
	for _, line := range strings.Split(string(chunk), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") && line != "---" {
			return false
		}
	}
	return true
}

func unwrapList(file string, index int, chunk []byte) []apiDocument {
	var head docHead
	_ = sigsyaml.Unmarshal(chunk, &head)
	whole := []apiDocument{{File: file, Index: index, Item: -1, Data: chunk, Head: head}}
	if head.Kind != "List" && !strings.HasSuffix(head.Kind, "List") {
		return whole
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := sigsyaml.Unmarshal(chunk, &list); err != nil || list.Items == nil {
		return whole
	}
	docs := make([]apiDocument, 0, len(list.Items))
	for i, item := range list.Items {
		data, err := sigsyaml.Marshal(item)
		if err != nil {
			return whole
		}
		var itemHead docHead
		_ = sigsyaml.Unmarshal(data, &itemHead)
		docs = append(docs, apiDocument{File: file, Index: index, Item: i, Data: data, Head: itemHead})
	}
	return docs
}
