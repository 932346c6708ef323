package core

// validate.go: `oracle validate PATHS... --k8s-version 1.36|1.37 [--feature-gates ...] -o json`.
//
// Each document goes through what the API server does with a create request, in the server's own code:
//
//  1. strict decoding (k8s.io/apimachinery/pkg/runtime/serializer/json with Yaml and Strict on, the decoder a
//     server uses for `fieldValidation=Strict`, kubectl's default): unknown and duplicate fields are errors, a
//     value of the wrong JSON type stops decoding;
//  2. the release's defaulting (legacyscheme.Scheme.Default) and conversion to the internal version;
//  3. rest.BeforeCreate (k8s.io/apiserver/pkg/registry/rest/create.go) with the kind's registry strategy from
//     pkg/registry/...: PrepareForCreate (gated fields dropped), the hand-written validation, ObjectMeta
//     validation, and declarative validation with the options the strategy derives from the feature gates.
//
// Admission plugins are not run (no PriorityClass lookup, no ServiceAccount or LimitRange): they need cluster
// state, and wasplan's validate does not model them either. A group/version/kind the release's scheme does not
// know is reported as not served.
//
// Where the server stops at the first failing step, this oracle goes on where it can, so that a comparison sees
// every fault: unknown and duplicate fields are reported and the object (without them) is still validated.
// A type error ends the document: there is no object to validate.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"

	"github.com/spf13/pflag"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serializerjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/types"
	utilversion "k8s.io/apimachinery/pkg/util/version"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	genericserver "k8s.io/apiserver/pkg/server"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	// the API groups validate decodes: each install registers its versions, defaults and conversions
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
)

// APIServerAdapter is what validate, convert and expand need from one release; each release's adapter.go
// implements it.
type APIServerAdapter interface {
	// CreateStrategies returns the registry strategy of every kind validate checks, by group and kind.
	// namespaces backs the strategies that look namespaces up (DRA admin access).
	CreateStrategies(namespaces NamespaceGetter) map[schema.GroupKind]rest.RESTCreateStrategy
	// JobController builds the release's Job controller on the given client and informers; run starts it.
	JobController(ctx context.Context, env *ControllerEnv) (run func(ctx context.Context), err error)
}

// ValidationError is one finding of the server, with the field path it names.
type ValidationError struct {
	Field   string `json:"field"`
	Type    string `json:"type"`
	Message string `json:"message"`
}

// ValidatedDocument is one document of the report, in the shape of wasplan's ValidationReport.
type ValidatedDocument struct {
	File       string            `json:"file"`
	Document   int               `json:"document"`
	Item       *int              `json:"item"`
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Namespace  *string           `json:"namespace"`
	Name       *string           `json:"name"`
	Verdict    string            `json:"verdict"`
	Errors     []ValidationError `json:"errors"`
}

// Error types beyond field.ErrorType's: what the decoder and the served check say.
const (
	errUnknownField   = "FieldValueUnknown"
	errDuplicateField = "FieldValueDuplicate"
	errDecode         = "FieldValueTypeInvalid"
	errNotServed      = "NotServed"
)

var strictDecoder = serializerjson.NewSerializerWithOptions(serializerjson.DefaultMetaFactory,
	legacyscheme.Scheme, legacyscheme.Scheme, serializerjson.SerializerOptions{Yaml: true, Strict: true})

func runValidate(a Adapter, args []string, stdout, stderr io.Writer) int {
	server, docs, code := apiCommand(a, "validate", "json", args, stderr)
	if server == nil {
		return code
	}
	strategies := server.CreateStrategies(adminNamespaces())
	report := struct {
		APIVersion string              `json:"apiVersion"`
		Kind       string              `json:"kind"`
		K8sVersion string              `json:"k8sVersion"`
		Documents  []ValidatedDocument `json:"documents"`
	}{"wasplan.io/v1alpha1", "ValidationReport", a.Release(), []ValidatedDocument{}}
	invalid := false
	for _, doc := range docs {
		checked := validateDocument(doc, strategies)
		invalid = invalid || checked.Verdict == "invalid"
		report.Documents = append(report.Documents, checked)
	}
	out, err := json.MarshalIndent(report, "", "  ")
	if err == nil {
		_, err = fmt.Fprintln(stdout, string(out))
	}
	if err != nil {
		return fail(stderr, err)
	}
	if invalid {
		return ExitFindings
	}
	return ExitOK
}

// apiCommand parses the flags validate and expand share (PATHS, --k8s-version, --feature-gates, -o), sets the
// gates and reads the documents; on failure it returns a nil adapter and the exit code.
func apiCommand(a Adapter, name, output string, args []string, stderr io.Writer) (APIServerAdapter, []apiDocument, int) {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	release := fs.String("k8s-version", a.Release(), "Kubernetes release (this binary: "+a.Release()+")")
	gates := fs.String("feature-gates", "", "Name=bool,... over wasplan's default gate profile")
	format := fs.StringP("output", "o", output, "output format ("+output+")")
	if err := fs.Parse(args); err != nil {
		return nil, nil, fail(stderr, &UsageError{err.Error()})
	}
	server, err := apiServer(a)
	if err == nil {
		err = checkAPIRelease(a, *release, *format, output)
	}
	if err == nil {
		err = setServingVersion(a)
	}
	if err == nil {
		err = applyAPIGates(a, *gates)
	}
	if err != nil {
		return nil, nil, fail(stderr, err)
	}
	docs, err := readAPIDocuments(fs.Args())
	if err != nil {
		return nil, nil, fail(stderr, &InputError{err.Error()})
	}
	return server, docs, ExitOK
}

// apiServer: the release adapter's API-server part.
func apiServer(a Adapter) (APIServerAdapter, error) {
	if server, ok := a.(APIServerAdapter); ok {
		return server, nil
	}
	return nil, fmt.Errorf("the Kubernetes %s adapter has no API server part", a.Release())
}

// applyAPIGates sets wasplan's gate profile for the release, then --feature-gates over it, on the process's
// feature gates, before any strategy or controller reads them. An unknown name is an error.
func applyAPIGates(a Adapter, spec string) error {
	given, err := parseGates(spec)
	if err != nil {
		return err
	}
	values := map[string]bool{}
	for name, on := range a.ProfileGates() {
		values[name] = on
	}
	for name, on := range given {
		values[name] = on
	}
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(values); err != nil {
		return &UsageError{fmt.Sprintf("--feature-gates: %v", err)}
	}
	return nil
}

// NamespaceGetter is the client the DRA strategies read a claim's namespace with.
type NamespaceGetter = corev1client.NamespaceInterface

// offlineNamespaces: there are no Namespace objects offline; each namespace a document names is created with
// the label that allows DRA admin access (resource.kubernetes.io/admin-access), as wasplan's validate cannot
// know a namespace's labels either.
var offlineNamespaces = fake.NewClientset().CoreV1().Namespaces()

func adminNamespaces() NamespaceGetter { return offlineNamespaces }

func ensureAdminNamespace(name string) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name,
		Labels: map[string]string{"resource.kubernetes.io/admin-access": "true"}}}
	_, _ = offlineNamespaces.Create(context.Background(), ns, metav1.CreateOptions{})
}

func validateDocument(doc apiDocument, strategies map[schema.GroupKind]rest.RESTCreateStrategy) ValidatedDocument {
	out := ValidatedDocument{File: doc.File, Document: doc.Index, APIVersion: doc.Head.APIVersion,
		Kind: doc.Head.Kind, Errors: []ValidationError{}}
	if doc.Item >= 0 {
		item := doc.Item
		out.Item = &item
	}
	if doc.Head.Metadata.Namespace != "" {
		ns := doc.Head.Metadata.Namespace
		out.Namespace = &ns
	}
	if doc.Head.Metadata.Name != "" {
		name := doc.Head.Metadata.Name
		out.Name = &name
	}
	if found := serverErrors(doc, strategies); len(found) > 0 {
		out.Errors = found
	}
	sort.SliceStable(out.Errors, func(i, j int) bool { return out.Errors[i].Field < out.Errors[j].Field })
	out.Verdict = "valid"
	if len(out.Errors) > 0 {
		out.Verdict = "invalid"
	}
	return out
}

// serverErrors runs the create path on one document and returns everything it reports.
func serverErrors(doc apiDocument, strategies map[schema.GroupKind]rest.RESTCreateStrategy) []ValidationError {
	gv, err := schema.ParseGroupVersion(doc.Head.APIVersion)
	if err != nil || doc.Head.Kind == "" {
		return []ValidationError{{"apiVersion", errNotServed, "apiVersion and kind must be set"}}
	}
	gvk := gv.WithKind(doc.Head.Kind)
	if served := servedError(gvk); served != nil {
		return []ValidationError{*served}
	}
	strategy, ok := strategies[gvk.GroupKind()]
	if !ok {
		return []ValidationError{{"kind", errNotServed, fmt.Sprintf("the oracle does not validate %s", gvk.GroupKind())}}
	}
	obj, _, err := strictDecoder.Decode(doc.Data, nil, nil)
	var found []ValidationError
	if err != nil {
		strict, isStrict := runtime.AsStrictDecodingError(err)
		if !isStrict || obj == nil {
			return []ValidationError{decodeError(err)}
		}
		found = append(found, strictErrors(strict)...)
	}
	internal, err := defaultAndConvert(obj, gvk)
	if err != nil {
		return append(found, ValidationError{"", "InternalError", err.Error()})
	}
	return append(found, createErrors(internal, gvk, strategy, "")...)
}

// servingEvaluator is kube-apiserver's own test of a kind's removal release against the server's version
// (k8s.io/apiserver/pkg/server/deleted_kinds.go, which RemoveUnavailableKinds applies to every API group's
// storage before it is installed), built for the module the binary is (Adapter.Kubernetes).
var servingEvaluator genericserver.ResourceExpirationEvaluator

func setServingVersion(a Adapter) error {
	current, err := utilversion.ParseSemantic(a.Kubernetes())
	if err == nil {
		servingEvaluator, err = genericserver.NewResourceExpirationEvaluator(current)
	}
	return err
}

// removedError: the kind's generated APILifecycleRemoved (zz_generated.prerelease-lifecycle.go) names a
// release the server no longer serves it in, as isNotRemoved decides: scheduling.k8s.io/v1beta1 PriorityClass
// (removed in 1.22) everywhere, resource.k8s.io/v1beta1 from v1.38.0-beta.0 on (a beta tag, unlike an alpha
// one, drops the kinds removed in its own minor).
func removedError(gvk schema.GroupVersionKind) *ValidationError {
	obj, err := legacyscheme.Scheme.New(gvk)
	if err != nil || servingEvaluator == nil {
		return nil
	}
	removed, ok := obj.(interface{ APILifecycleRemoved() (major, minor int) })
	if !ok {
		return nil
	}
	major, minor := removed.APILifecycleRemoved()
	if servingEvaluator.ShouldServeForVersion(major, minor) {
		return nil
	}
	return &ValidationError{"apiVersion", errNotServed, fmt.Sprintf("%s %s is not served since Kubernetes %d.%d", gvk.GroupVersion(), gvk.Kind, major, minor)}
}

// servedError: the release serves the versions its scheme knows, except the kinds whose removal release has
// come (removedError), and the scheduling.k8s.io resources only while the gate that enables their storage is on
// (pkg/registry/scheduling/rest/storage_scheduling.go).
func servedError(gvk schema.GroupVersionKind) *ValidationError {
	if legacyscheme.Scheme.Recognizes(gvk) {
		if removed := removedError(gvk); removed != nil {
			return removed
		}
		resource, _ := meta.UnsafeGuessKindToResource(gvk)
		if gate, gated := servedByGate[resource.Resource]; gated && gvk.Group == "scheduling.k8s.io" &&
			!utilfeature.DefaultFeatureGate.Enabled(gate) {
			return &ValidationError{"kind", errNotServed, fmt.Sprintf("%s is not served while the %s feature gate is off", resource.Resource, gate)}
		}
		return nil
	}
	if legacyscheme.Scheme.IsVersionRegistered(gvk.GroupVersion()) {
		return &ValidationError{"kind", errNotServed, fmt.Sprintf("no kind %q is registered for version %q", gvk.Kind, gvk.GroupVersion())}
	}
	return &ValidationError{"apiVersion", errNotServed, fmt.Sprintf("the server does not serve %s", gvk.GroupVersion())}
}

func defaultAndConvert(obj runtime.Object, gvk schema.GroupVersionKind) (runtime.Object, error) {
	legacyscheme.Scheme.Default(obj)
	return legacyscheme.Scheme.ConvertToVersion(obj, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
}

// createErrors is the server's create path after decoding: system metadata (a random UID, or the one given),
// the namespace the request names (kubectl's "default" when the document names none), then rest.BeforeCreate.
func createErrors(obj runtime.Object, gvk schema.GroupVersionKind, strategy rest.RESTCreateStrategy, uid types.UID) []ValidationError {
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return []ValidationError{{"", "InternalError", err.Error()}}
	}
	namespace := ""
	if strategy.NamespaceScoped() {
		namespace = accessor.GetNamespace()
		if namespace == "" {
			namespace = "default" // kubectl's context namespace
		}
		accessor.SetNamespace(namespace)
		ensureAdminNamespace(namespace)
	} else {
		accessor.SetNamespace("")
	}
	rest.FillObjectMetaSystemFields(accessor)
	if uid != "" {
		accessor.SetUID(uid)
	}
	if accessor.GetName() == "" && accessor.GetGenerateName() != "" {
		accessor.SetName(strategy.GenerateName(accessor.GetGenerateName()))
	}
	ctx := genericapirequest.WithNamespace(context.Background(), namespace)
	resource, _ := meta.UnsafeGuessKindToResource(gvk)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "create",
		APIPrefix: "apis", APIGroup: gvk.Group, APIVersion: gvk.Version, Namespace: namespace, Resource: resource.Resource})
	err = rest.BeforeCreate(strategy, ctx, obj)
	if err == nil {
		return nil
	}
	return statusErrors(err)
}

func statusErrors(err error) []ValidationError {
	status, ok := err.(apierrors.APIStatus)
	if !ok || status.Status().Details == nil || len(status.Status().Details.Causes) == 0 {
		return []ValidationError{{"", "InternalError", err.Error()}}
	}
	var out []ValidationError
	for _, cause := range status.Status().Details.Causes {
		out = append(out, ValidationError{cause.Field, string(cause.Type), cause.Message})
	}
	return out
}

var quotedField = regexp.MustCompile(`^(unknown|duplicate) field "(.*)"$`)

// strictErrors: the strict decoder's findings, one per unknown or duplicate field, with the field's path.
func strictErrors(err interface{ Errors() []error }) []ValidationError {
	var out []ValidationError
	for _, e := range err.Errors() {
		msg := e.Error()
		// YAMLToJSONStrict reports a duplicate YAML key as `... key "name" already set in map`
		if m := quotedField.FindStringSubmatch(msg); m != nil {
			kind := errUnknownField
			if m[1] == "duplicate" {
				kind = errDuplicateField
			}
			out = append(out, ValidationError{m[2], kind, msg})
			continue
		}
		out = append(out, ValidationError{duplicateYAMLKey(msg), errDuplicateField, msg})
	}
	return out
}

var yamlDupKey = regexp.MustCompile(`key "([^"]*)" already set in map`)

func duplicateYAMLKey(msg string) string {
	if m := yamlDupKey.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
}

// decodeError: a value of the wrong type. encoding/json names the Go struct and the JSON path without list
// indexes ("PodGroup.spec.schedulingPolicy.gang.minCount"); the path after the struct name is kept.
var goStructField = regexp.MustCompile(`Go struct field ([A-Za-z0-9_]+)\.([^ ]+) of type`)

func decodeError(err error) ValidationError {
	msg := err.Error()
	if m := goStructField.FindStringSubmatch(msg); m != nil {
		return ValidationError{m[2], errDecode, msg}
	}
	return ValidationError{"", errDecode, msg}
}
