package httpapi

// CreateBody is the JSON edge's createServiceRequest body, for the
// external tests that check it against the OpenAPI document.
type CreateBody = createBody
