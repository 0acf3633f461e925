package pages

// hearBackTexts are the words of how the person hears back (hearback.go)
// and of the code lookup, kept apart from text.go's so that each grows on
// its own; init adds them to texts.
var hearBackTexts = map[string]map[string]string{
	"en": {
		"hear_title":         "How you will hear back",
		"hear_ways":          "The business's answer reaches you",
		"hear_by_email":      "by e-mail to %s",
		"hear_by_text":       "by text to %s",
		"hear_and":           ", and ",
		"hear_silent":        "Nobody will write to you: keep this page.",
		"hear_bounced":       "Our e-mail to %s could not be delivered.",
		"hear_bounced_other": "Our e-mail to %s could not be delivered. Give another address below, and we write to it instead.",
		"hear_silent_more":   "The business's answer shows here, and the business may call you. To be told, add an e-mail address or allow texts below.",
		// When only one way, or none, can be added (booking.PersonReach: an
		// example or preview business writes to nobody; texts may be off).
		"hear_silent_more_email": "The business's answer shows here, and the business may call you. To be told, add an e-mail address below.",
		"hear_silent_more_sms":   "The business's answer shows here, and the business may call you. To be told, allow texts below.",
		"hear_silent_more_none":  "The business's answer shows here, and the business may call you.",
		"hear_email_label":       "Your e-mail address",
		"hear_email_hint":        "We write to it once now, with this page's link, then at every change of this request.",
		"hear_email_button":      "Tell me by e-mail",
		"hear_sms_label":         "Text me about this request at %s. Message and data rates may apply; reply STOP to opt out.",
		"hear_sms_button":        "Text me",
		"hear_sms_unticked":      "Tick the box to agree to texts, then press the button.",
		"hear_email_bad":         "Type an e-mail address, like name@example.com.",
		"hear_email_busy":        "This e-mail address already has %d open requests with this business. Use another address, or call the business.",
		"hear_email_refused":     "This address cannot be used for this request. Call the business.",
		"hear_no_ways":           "This is an example business: nobody is written to, so no way to be told can be added. The business's answer shows here.",
		"hear_too_many":          "How you hear back was changed %d times already for this request. Call the business.",
		"hear_changed":           "This request changed just now, or can no longer change how you hear back. Read it again below.",
		"hear_bad_form":          "This form could not be read. Go back to your request and try again.",
		"notice_email":           "We will write to %s about this request: a first message is on its way.",
		"notice_sms":             "We will text %s about this request: a first text is on its way.",

		"lookup_title":   "Find your request",
		"lookup_intro":   "Type the request code the business gave you, like 7K3M-Q9TD-2HXA.",
		"lookup_label":   "Request code",
		"lookup_button":  "Show my request",
		"lookup_empty":   "Type the request code: 12 letters and digits.",
		"lookup_bad":     "A request code has 12 letters and digits, like 7K3M-Q9TD-2HXA. Check what you typed.",
		"lookup_unknown": "No request has this code. Check it, or call the business.",
	},
	"es": {
		"hear_title":             "Cómo le avisaremos",
		"hear_ways":              "La respuesta del negocio le llega",
		"hear_by_email":          "por correo electrónico a %s",
		"hear_by_text":           "por mensaje de texto al %s",
		"hear_and":               ", y ",
		"hear_silent":            "Nadie le escribirá: guarde esta página.",
		"hear_bounced":           "Nuestro correo a %s no se pudo entregar.",
		"hear_bounced_other":     "Nuestro correo a %s no se pudo entregar. Dé otro correo abajo y le escribiremos a ese.",
		"hear_silent_more":       "La respuesta del negocio aparece aquí, y el negocio puede llamarle. Para que le avisen, añada un correo electrónico o acepte mensajes de texto abajo.",
		"hear_silent_more_email": "La respuesta del negocio aparece aquí, y el negocio puede llamarle. Para que le avisen, añada un correo electrónico abajo.",
		"hear_silent_more_sms":   "La respuesta del negocio aparece aquí, y el negocio puede llamarle. Para que le avisen, acepte mensajes de texto abajo.",
		"hear_silent_more_none":  "La respuesta del negocio aparece aquí, y el negocio puede llamarle.",
		"hear_email_label":       "Su correo electrónico",
		"hear_email_hint":        "Le escribimos una vez ahora, con el enlace de esta página, y después en cada cambio de esta solicitud.",
		"hear_email_button":      "Avíseme por correo",
		"hear_sms_label":         "Envíeme mensajes de texto sobre esta solicitud al %s. Pueden aplicarse tarifas de mensajes y datos; responda STOP para no recibir más.",
		"hear_sms_button":        "Envíeme mensajes",
		"hear_sms_unticked":      "Marque la casilla para aceptar los mensajes de texto y pulse el botón.",
		"hear_email_bad":         "Escriba un correo electrónico, como nombre@ejemplo.com.",
		"hear_email_busy":        "Este correo ya tiene %d solicitudes abiertas con este negocio. Use otro correo o llame al negocio.",
		"hear_email_refused":     "Este correo no se puede usar para esta solicitud. Llame al negocio.",
		"hear_no_ways":           "Este es un negocio de ejemplo: no se le escribe a nadie, así que no se puede añadir una forma de recibir avisos. La respuesta del negocio aparece aquí.",
		"hear_too_many":          "Ya se cambió %d veces cómo le avisamos de esta solicitud. Llame al negocio.",
		"hear_changed":           "Esta solicitud acaba de cambiar, o ya no puede cambiar cómo le avisamos. Léala de nuevo abajo.",
		"hear_bad_form":          "No se pudo leer este formulario. Vuelva a su solicitud e inténtelo de nuevo.",
		"notice_email":           "Le escribiremos a %s sobre esta solicitud: el primer mensaje va en camino.",
		"notice_sms":             "Le enviaremos mensajes de texto al %s sobre esta solicitud: el primero va en camino.",

		"lookup_title":   "Buscar su solicitud",
		"lookup_intro":   "Escriba el código de solicitud que le dio el negocio, como 7K3M-Q9TD-2HXA.",
		"lookup_label":   "Código de la solicitud",
		"lookup_button":  "Ver mi solicitud",
		"lookup_empty":   "Escriba el código de la solicitud: 12 letras y números.",
		"lookup_bad":     "Un código de solicitud tiene 12 letras y números, como 7K3M-Q9TD-2HXA. Revise lo que escribió.",
		"lookup_unknown": "Ninguna solicitud tiene este código. Revíselo o llame al negocio.",
	},
}

func init() {
	for lang, words := range hearBackTexts {
		for key, text := range words {
			texts[lang][key] = text
		}
	}
}
