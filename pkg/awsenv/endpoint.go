package awsenv

import (
	"fmt"
	"strings"
)

// Endpoint returns the endpoint URL that getenv configures for the service
// whose SDK ServiceID is serviceID (sesv2.ServiceID, dynamodb.ServiceID...),
// or "" for the service's own. The clients are built without the SDK's
// config package (see the package comment), and without it the SDK reads
// no endpoint from the environment, so this applies the config package's
// rules itself (AWS SDKs and Tools reference guide, "Service-specific
// endpoints"):
//
//   - the service's own variable, EndpointVariable(serviceID), wins;
//   - else AWS_ENDPOINT_URL, for every service;
//   - AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true (any case) turns both off;
//     any value but true or false is an error, as LoadDefaultConfig makes it.
//
// An empty variable counts as unset. An endpoint a caller sets in code (such
// as DYNAMODB_ENDPOINT) is not configured here and wins over all of these.
func Endpoint(getenv func(string) string, serviceID string) (string, error) {
	switch v := getenv(IgnoreEndpointsVariable); {
	case strings.EqualFold(v, "true"):
		return "", nil
	case v != "" && !strings.EqualFold(v, "false"):
		return "", fmt.Errorf("%s=%q: want true or false", IgnoreEndpointsVariable, v)
	}
	return firstSet(getenv(EndpointVariable(serviceID)), getenv(GlobalEndpointVariable)), nil
}

// The variables Endpoint reads besides the services' own.
const (
	GlobalEndpointVariable  = "AWS_ENDPOINT_URL"
	IgnoreEndpointsVariable = "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"
)

// EndpointVariable names the service's own endpoint variable as the SDK
// spells it: AWS_ENDPOINT_URL_ and the ServiceID in capitals, its spaces
// made underscores ("Pinpoint SMS Voice V2" gives
// AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2, "SESv2" AWS_ENDPOINT_URL_SESV2).
func EndpointVariable(serviceID string) string {
	return GlobalEndpointVariable + "_" + strings.ReplaceAll(strings.ToUpper(serviceID), " ", "_")
}
