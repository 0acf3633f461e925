package inboxweb

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// KindSignIn is the kind of the sign-in e-mail among notify's messages;
// KindSignup the sign-up e-mail's.
const (
	KindSignIn notify.Kind = "sign_in"
	KindSignup notify.Kind = "sign_up"
)

// signupHours is how long a sign-up link works, as the e-mail says.
var signupHours = int(booking.SignupTTL / time.Hour)

// SignupEmail writes the sign-up e-mail in lang (es, else en): Doorstep's
// own words and the link. The business's name is the stranger's text, so
// it is quoted as what was typed on the form, never as Doorstep's words,
// and kept out of the subject.
func SignupEmail(name, lang, link string) (string, string, string) {
	if lang == "es" {
		return "es", "Termine de registrar su negocio en Doorstep",
			fmt.Sprintf("Hola:\n\n"+
				"Alguien pidió registrar un negocio en Doorstep con este correo. En el formulario se escribió este nombre de negocio:\n\n"+
				"    «%s»\n\n"+
				"Para crear el negocio, abra este enlace en las próximas %d horas y pulse \"Crear mi negocio\":\n\n"+
				"%s\n\n"+
				"El enlace sirve una sola vez. El negocio empieza en vista previa: no recibe solicitudes hasta que usted lo publique.\n"+
				"Si usted no lo pidió, ignore este correo: sin el enlace no se crea nada.\n\n"+
				"Doorstep\n", name, signupHours, link)
	}
	return "en", "Finish signing your business up on Doorstep",
		fmt.Sprintf("Hello,\n\n"+
			"Someone asked to sign a business up on Doorstep with this e-mail address. The business name typed on the form was:\n\n"+
			"    \"%s\"\n\n"+
			"To create the business, open this link within %d hours and press \"Create my business\":\n\n"+
			"%s\n\n"+
			"The link works once. The business starts in preview: it takes no requests until you publish it.\n"+
			"If you did not ask for this, ignore this e-mail: nothing is created without the link.\n\n"+
			"Doorstep\n", name, signupHours, link)
}

// signInMinutes is how long a sign-in link works, as the e-mail says.
var signInMinutes = int(booking.SignInTTL / time.Minute)

// SignInEmail writes the sign-in e-mail to b, in b's default_language:
// Doorstep's own words, b's name and the link, nothing else.
func SignInEmail(b *booking.Business, link string) (lang, subject, body string) {
	lang = "en"
	if b.DefaultLanguage == "es" {
		lang = "es"
	}
	if lang == "es" {
		return lang, "Inicie sesión en la bandeja de Doorstep de " + b.Name,
			fmt.Sprintf("Hola:\n\n"+
				"Alguien pidió iniciar sesión en la bandeja de Doorstep de %s con este correo. "+
				"Para iniciar sesión, abra este enlace en los próximos %d minutos y pulse \"Iniciar sesión\":\n\n"+
				"%s\n\n"+
				"El enlace sirve una sola vez. Si usted no lo pidió, ignore este correo: nadie puede entrar sin él.\n\n"+
				"Doorstep\n", b.Name, signInMinutes, link)
	}
	return lang, "Sign in to " + b.Name + "'s Doorstep inbox",
		fmt.Sprintf("Hello,\n\n"+
			"Someone asked to sign in to %s's Doorstep inbox with this e-mail address. "+
			"To sign in, open this link within %d minutes and press \"Sign in\":\n\n"+
			"%s\n\n"+
			"The link works once. If you did not ask for it, ignore this e-mail: nobody can sign in without it.\n\n"+
			"Doorstep\n", b.Name, signInMinutes, link)
}

// EmailMailer is a Mailer over notify's e-mail senders: pkg/sesmail's
// Sender when deployed, the local server's outbox under make run.
type EmailMailer struct {
	Sender notify.EmailSender
	Now    func() time.Time // nil: time.Now
}

var _ Mailer = EmailMailer{}

// SendSignIn sends b's sign-in e-mail with link to the address to. The
// message's ID names the business and the time, never the link (the
// outbox logs IDs).
func (m EmailMailer) SendSignIn(ctx context.Context, to string, b *booking.Business, link string) error {
	lang, subject, body := SignInEmail(b, link)
	return m.send(ctx, "sign-in/"+b.Slug, KindSignIn, to, lang, subject, body)
}

// SendSignup sends the sign-up e-mail with link to the address to. The
// message's ID names the time and a hash of the address, never the
// address or the link (the outbox logs IDs).
func (m EmailMailer) SendSignup(ctx context.Context, to, name, lang, link string) error {
	lang, subject, body := SignupEmail(name, lang, link)
	return m.send(ctx, "sign-up/"+booking.EmailHash(to)[:16], KindSignup, to, lang, subject, body)
}

// send sends one of the web inbox's e-mails to the address to, as the
// business's: its change is what it is about (never an address or a
// link: the outbox logs IDs), and its ID that change at this millisecond.
func (m EmailMailer) send(ctx context.Context, change string, kind notify.Kind, to, lang, subject, body string) error {
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	return m.Sender.SendEmail(ctx, notify.Message{
		ID:       change + "/" + strconv.FormatInt(now().UnixMilli(), 10) + "/" + string(notify.AudienceBusiness) + "/" + string(notify.ChannelEmail),
		Change:   change,
		Kind:     kind,
		Audience: notify.AudienceBusiness,
		Channel:  notify.ChannelEmail,
		To:       to,
		Language: lang,
		Subject:  subject,
		Body:     body,
	})
}
